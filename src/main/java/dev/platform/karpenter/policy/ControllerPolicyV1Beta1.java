package dev.platform.karpenter.policy;

import static dev.platform.karpenter.policy.ControllerPolicy.NODE_CLASS_TAG;
import static dev.platform.karpenter.policy.ControllerPolicy.REGION_TAG;
import static dev.platform.karpenter.policy.ControllerPolicy.REQUEST;
import static dev.platform.karpenter.policy.ControllerPolicy.RESOURCE;
import static dev.platform.karpenter.policy.ControllerPolicy.anyValue;
import static dev.platform.karpenter.policy.ControllerPolicy.owned;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.forAllValuesStringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Statement.allow;

import dev.platform.karpenter.policy.ControllerPolicy.Group;
import dev.platform.karpenter.policy.ControllerPolicy.Scope;
import dev.platform.karpenter.policy.IamPolicyDocument.Condition;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Karpenter 0.32 to 0.37: the sixteen statements of KarpenterControllerPolicy in the getting-started template,
 * keyed on the karpenter.sh/nodepool tag, with the instance-profile actions Karpenter needs to make profiles from
 * EC2NodeClass.spec.role. 0.32 has the v0.32.10 template's statements (the same as upstream's
 * v1beta1-controller-policy.json of the migration guide); 0.33 to 0.37 the v0.37.8 template's, which scopes the use
 * of launch templates to Karpenter's own and may tag spot requests. Grouped like the 1.x policies.
 */
final class ControllerPolicyV1Beta1 {
    private static final String POOL_TAG = ApiGeneration.V1BETA1.poolLabel();

    private ControllerPolicyV1Beta1() {}

    /** @param v032 the 0.32 template (unscoped launch templates, queue attributes read) rather than 0.37's */
    static List<Group> groups(Scope s, boolean v032) {
        List<String> queueActions = v032
                ? List.of("sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:ReceiveMessage")
                : List.of("sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage");
        return ControllerPolicy.inTemplateOrder(
                s, nodeLifecycle(s, v032), iamIntegration(s), queueActions, resourceDiscovery(s));
    }

    static Group nodeLifecycle(Scope s, boolean v032) {
        List<String> taggedOnCreation = new ArrayList<>(List.of(
                s.ec2("fleet/*"),
                s.ec2("instance/*"),
                s.ec2("volume/*"),
                s.ec2("network-interface/*"),
                s.ec2("launch-template/*")));
        List<Statement> statements = new ArrayList<>();
        if (v032) {
            statements.add(allow(
                    "AllowScopedEC2InstanceActions",
                    List.of("ec2:RunInstances", "ec2:CreateFleet"),
                    List.of(
                            s.ec2WithoutAccount("image/*"),
                            s.ec2WithoutAccount("snapshot/*"),
                            s.ec2("spot-instances-request/*"),
                            s.ec2("security-group/*"),
                            s.ec2("subnet/*"),
                            s.ec2("launch-template/*"))));
        } else {
            taggedOnCreation.add(s.ec2("spot-instances-request/*"));
            statements.add(allow(
                    "AllowScopedEC2InstanceAccessActions",
                    List.of("ec2:RunInstances", "ec2:CreateFleet"),
                    List.of(
                            s.ec2WithoutAccount("image/*"), s.ec2WithoutAccount("snapshot/*"),
                            s.ec2("security-group/*"), s.ec2("subnet/*"))));
            statements.add(ControllerPolicy.launchTemplateAccess(s, POOL_TAG));
        }
        statements.add(allow(
                "AllowScopedEC2InstanceActionsWithTags",
                List.of("ec2:RunInstances", "ec2:CreateFleet", "ec2:CreateLaunchTemplate"),
                taggedOnCreation,
                owned(s, REQUEST),
                anyValue(REQUEST, POOL_TAG)));
        statements.add(allow(
                "AllowScopedResourceCreationTagging",
                List.of("ec2:CreateTags"),
                taggedOnCreation,
                owned(s, REQUEST),
                stringEquals("ec2:CreateAction", "RunInstances", "CreateFleet", "CreateLaunchTemplate"),
                anyValue(REQUEST, POOL_TAG)));
        statements.add(ControllerPolicy.instanceTagging(
                "AllowScopedResourceTagging",
                s,
                owned(s, RESOURCE),
                anyValue(RESOURCE, POOL_TAG),
                forAllValuesStringEquals("aws:TagKeys", "karpenter.sh/nodeclaim", "Name")));
        statements.add(ControllerPolicy.scopedDeletion(s, POOL_TAG));
        return new Group("NodeLifecycle", statements);
    }

    private static Group iamIntegration(Scope s) {
        return new Group(
                "IAMIntegration",
                List.of(
                        ControllerPolicy.passNodeRole(s),
                        ControllerPolicy.instanceProfileCreation(List.of("*"), nodeClassProfile(s, REQUEST)),
                        ControllerPolicy.instanceProfileTagging(
                                List.of("*"),
                                Stream.concat(
                                                Stream.of(nodeClassProfile(s, RESOURCE)),
                                                Stream.of(nodeClassProfile(s, REQUEST)))
                                        .toArray(Condition[]::new)),
                        ControllerPolicy.instanceProfileActions(List.of("*"), nodeClassProfile(s, RESOURCE)),
                        allow("AllowInstanceProfileReadActions", List.of("iam:GetInstanceProfile"), List.of("*"))));
    }

    /**
     * An instance profile Karpenter made for a node class of this cluster, in this region, by its tags: those of
     * the profile ({@code aws:ResourceTag/}) or those of the request ({@code aws:RequestTag/}).
     */
    private static Condition[] nodeClassProfile(Scope s, String tags) {
        return new Condition[] {
            owned(s, tags), stringEquals(tags + REGION_TAG, s.region()), anyValue(tags, NODE_CLASS_TAG),
        };
    }

    private static Group resourceDiscovery(Scope s) {
        List<Statement> statements = new ArrayList<>();
        statements.add(ControllerPolicy.regionalReads(s, ControllerPolicy.V0_REGIONAL_READS));
        statements.addAll(ControllerPolicy.ssmAndPricingReads(s));
        return new Group("ResourceDiscovery", statements);
    }
}
