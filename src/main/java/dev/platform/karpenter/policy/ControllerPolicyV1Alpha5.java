package dev.platform.karpenter.policy;

import static dev.platform.karpenter.policy.ControllerPolicy.REQUEST;
import static dev.platform.karpenter.policy.ControllerPolicy.RESOURCE;
import static dev.platform.karpenter.policy.ControllerPolicy.anyValue;
import static dev.platform.karpenter.policy.ControllerPolicy.owned;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.forAllValuesStringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Statement.allow;

import dev.platform.karpenter.policy.ControllerPolicy.Group;
import dev.platform.karpenter.policy.ControllerPolicy.Scope;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.List;

/**
 * Karpenter 0.30/0.31: the eleven statements of KarpenterControllerPolicy in the v0.30.0 getting-started template,
 * keyed on the karpenter.sh/provisioner-name tag. Upstream ships them as one policy; here they are grouped like the
 * 1.x policies so each stays far below IAM's size limit.
 */
final class ControllerPolicyV1Alpha5 {
    private static final String POOL_TAG = ApiGeneration.V1ALPHA5.poolLabel();

    private ControllerPolicyV1Alpha5() {}

    static List<Group> groups(Scope s) {
        return List.of(
                new Group(
                        "NodeLifecycle",
                        List.of(
                                allow(
                                        "AllowScopedEC2InstanceActions",
                                        List.of("ec2:RunInstances", "ec2:CreateFleet"),
                                        List.of(
                                                s.ec2WithoutAccount("image/*"), s.ec2WithoutAccount("snapshot/*"),
                                                s.ec2("spot-instances-request/*"), s.ec2("security-group/*"),
                                                s.ec2("subnet/*"), s.ec2("launch-template/*"))),
                                allow(
                                        "AllowScopedEC2LaunchTemplateActions",
                                        List.of("ec2:CreateLaunchTemplate"),
                                        List.of(s.ec2("launch-template/*")),
                                        owned(s, REQUEST),
                                        anyValue(REQUEST, POOL_TAG)),
                                allow(
                                        "AllowScopedEC2InstanceActionsWithTags",
                                        List.of("ec2:RunInstances", "ec2:CreateFleet"),
                                        List.of(
                                                s.ec2("fleet/*"),
                                                s.ec2("instance/*"),
                                                s.ec2("volume/*"),
                                                s.ec2("network-interface/*")),
                                        owned(s, REQUEST),
                                        anyValue(REQUEST, POOL_TAG)),
                                allow(
                                        "AllowScopedResourceCreationTagging",
                                        List.of("ec2:CreateTags"),
                                        List.of(
                                                s.ec2("fleet/*"),
                                                s.ec2("instance/*"),
                                                s.ec2("volume/*"),
                                                s.ec2("network-interface/*"),
                                                s.ec2("launch-template/*")),
                                        owned(s, REQUEST),
                                        stringEquals(
                                                "ec2:CreateAction",
                                                "RunInstances",
                                                "CreateFleet",
                                                "CreateLaunchTemplate"),
                                        anyValue(REQUEST, POOL_TAG)),
                                ControllerPolicy.instanceTagging(
                                        "AllowMachineMigrationTagging",
                                        s,
                                        owned(s, RESOURCE),
                                        stringEquals("aws:RequestTag/karpenter.sh/managed-by", s.clusterName()),
                                        anyValue(REQUEST, POOL_TAG),
                                        forAllValuesStringEquals("aws:TagKeys", POOL_TAG, "karpenter.sh/managed-by")),
                                ControllerPolicy.scopedDeletion(s, POOL_TAG))),
                new Group("IAMIntegration", List.of(ControllerPolicy.passNodeRole(s))),
                ControllerPolicy.eksIntegration(s),
                ControllerPolicy.interruption(
                        s,
                        List.of(
                                "sqs:DeleteMessage",
                                "sqs:GetQueueAttributes",
                                "sqs:GetQueueUrl",
                                "sqs:ReceiveMessage")),
                new Group(
                        "ResourceDiscovery",
                        List.of(
                                ControllerPolicy.regionalReads(s, ControllerPolicy.V0_REGIONAL_READS),
                                allow(
                                        "AllowGlobalReadActions",
                                        List.of("pricing:GetProducts", "ssm:GetParameter"),
                                        List.of("*")))));
    }
}
