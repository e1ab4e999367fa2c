package dev.platform.karpenter.policy;

import static dev.platform.karpenter.policy.ControllerPolicy.NODE_CLASS_TAG;
import static dev.platform.karpenter.policy.ControllerPolicy.REGION_TAG;
import static dev.platform.karpenter.policy.ControllerPolicy.REQUEST;
import static dev.platform.karpenter.policy.ControllerPolicy.RESOURCE;
import static dev.platform.karpenter.policy.ControllerPolicy.anyValue;
import static dev.platform.karpenter.policy.ControllerPolicy.owned;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.forAllValuesStringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEqualsIfExists;
import static dev.platform.karpenter.policy.IamPolicyDocument.Statement.allow;

import dev.platform.karpenter.policy.ControllerPolicy.Group;
import dev.platform.karpenter.policy.ControllerPolicy.Scope;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.ArrayList;
import java.util.List;

/**
 * Karpenter 1.x: the six controller policies of the getting-started template of PolicyGeneration.V1's tag, keyed on the
 * karpenter.sh/nodepool and eks:eks-cluster-name tags, with the instance-profile actions Karpenter needs to make
 * profiles from EC2NodeClass.spec.role and the zonal shift read. Older 1.x releases ignore the permissions they do
 * not use, except the capacity reservation ones, which only releases that have reservations get.
 */
final class ControllerPolicyV1 {
    private static final String POOL_TAG = ApiGeneration.V1.poolLabel();
    private static final String EKS_CLUSTER_TAG = "eks:eks-cluster-name";

    private ControllerPolicyV1() {}

    /** @param capacityReservations whether the release launches into capacity reservations */
    static List<Group> groups(Scope s, boolean capacityReservations) {
        Group zonalShift = new Group(
                "ZonalShift",
                List.of(allow(
                        "AllowZonalShiftStatusReadOnly",
                        List.of("arc-zonal-shift:GetManagedResource"),
                        List.of("*"),
                        stringEquals("arc-zonal-shift:ResourceIdentifier", s.clusterArn()))));
        return ControllerPolicy.inTemplateOrder(
                s,
                nodeLifecycle(s, capacityReservations),
                iamIntegration(s),
                List.of("sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"),
                resourceDiscovery(s, capacityReservations),
                zonalShift);
    }

    private static Group nodeLifecycle(Scope s, boolean capacityReservations) {
        List<String> taggedOnCreation = List.of(
                s.ec2("fleet/*"),
                s.ec2("instance/*"),
                s.ec2("volume/*"),
                s.ec2("network-interface/*"),
                s.ec2("launch-template/*"),
                s.ec2("spot-instances-request/*"));
        return new Group(
                "NodeLifecycle",
                List.of(
                        allow(
                                "AllowScopedEC2InstanceAccessActions",
                                List.of("ec2:RunInstances", "ec2:CreateFleet"),
                                launchedFrom(s, capacityReservations)),
                        ControllerPolicy.launchTemplateAccess(s, POOL_TAG),
                        allow(
                                "AllowScopedEC2InstanceActionsWithTags",
                                List.of("ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"),
                                taggedOnCreation,
                                owned(s, REQUEST),
                                stringEquals(REQUEST + EKS_CLUSTER_TAG, s.clusterName()),
                                anyValue(REQUEST, POOL_TAG)),
                        allow(
                                "AllowScopedResourceCreationTagging",
                                List.of("ec2:CreateTags"),
                                taggedOnCreation,
                                owned(s, REQUEST),
                                stringEquals(REQUEST + EKS_CLUSTER_TAG, s.clusterName()),
                                stringEquals("ec2:CreateAction", "RunInstances", "CreateFleet", "CreateLaunchTemplate"),
                                anyValue(REQUEST, POOL_TAG)),
                        ControllerPolicy.instanceTagging(
                                "AllowScopedResourceTagging",
                                s,
                                owned(s, RESOURCE),
                                anyValue(RESOURCE, POOL_TAG),
                                stringEqualsIfExists(REQUEST + EKS_CLUSTER_TAG, s.clusterName()),
                                forAllValuesStringEquals(
                                        "aws:TagKeys", EKS_CLUSTER_TAG, "karpenter.sh/nodeclaim", "Name")),
                        ControllerPolicy.scopedDeletion(s, POOL_TAG)));
    }

    /** What instances launch from: images, snapshots, security groups, subnets, reservations, placement groups. */
    private static List<String> launchedFrom(Scope s, boolean capacityReservations) {
        List<String> resources = new ArrayList<>(List.of(
                s.ec2WithoutAccount("image/*"),
                s.ec2WithoutAccount("snapshot/*"),
                s.ec2("security-group/*"),
                s.ec2("subnet/*")));
        if (capacityReservations) {
            resources.add(s.ec2("capacity-reservation/*"));
        }
        resources.add(s.ec2("placement-group/*"));
        return List.copyOf(resources);
    }

    private static Group iamIntegration(Scope s) {
        String instanceProfiles = s.iam("instance-profile/*");
        return new Group(
                "IAMIntegration",
                List.of(
                        ControllerPolicy.passNodeRole(s),
                        ControllerPolicy.instanceProfileCreation(
                                List.of(instanceProfiles),
                                owned(s, REQUEST),
                                stringEquals(REQUEST + EKS_CLUSTER_TAG, s.clusterName()),
                                stringEquals(REQUEST + REGION_TAG, s.region()),
                                anyValue(REQUEST, NODE_CLASS_TAG)),
                        ControllerPolicy.instanceProfileTagging(
                                List.of(instanceProfiles),
                                owned(s, RESOURCE),
                                stringEquals(RESOURCE + REGION_TAG, s.region()),
                                owned(s, REQUEST),
                                stringEquals(REQUEST + EKS_CLUSTER_TAG, s.clusterName()),
                                stringEquals(REQUEST + REGION_TAG, s.region()),
                                anyValue(RESOURCE, NODE_CLASS_TAG),
                                anyValue(REQUEST, NODE_CLASS_TAG)),
                        ControllerPolicy.instanceProfileActions(
                                List.of(instanceProfiles),
                                owned(s, RESOURCE),
                                stringEquals(RESOURCE + REGION_TAG, s.region()),
                                anyValue(RESOURCE, NODE_CLASS_TAG))));
    }

    private static Group resourceDiscovery(Scope s, boolean capacityReservations) {
        List<String> reads = new ArrayList<>();
        if (capacityReservations) {
            reads.add("ec2:DescribeCapacityReservations");
        }
        reads.addAll(List.of(
                "ec2:DescribeImages",
                "ec2:DescribeInstances",
                "ec2:DescribeInstanceStatus",
                "ec2:DescribeInstanceTypeOfferings",
                "ec2:DescribeInstanceTypes",
                "ec2:DescribeLaunchTemplates",
                "ec2:DescribePlacementGroups",
                "ec2:DescribeSecurityGroups",
                "ec2:DescribeSpotPriceHistory",
                "ec2:DescribeSubnets"));
        List<Statement> statements = new ArrayList<>(List.of(ControllerPolicy.regionalReads(s, reads)));
        statements.addAll(ControllerPolicy.ssmAndPricingReads(s));
        statements.add(
                allow("AllowUnscopedInstanceProfileListAction", List.of("iam:ListInstanceProfiles"), List.of("*")));
        statements.add(allow(
                "AllowInstanceProfileReadActions",
                List.of("iam:GetInstanceProfile"),
                List.of(s.iam("instance-profile/*"))));
        return new Group("ResourceDiscovery", statements);
    }
}
