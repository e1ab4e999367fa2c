package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.policy.ControllerPolicy;
import imports.aws.data_aws_kms_key.DataAwsKmsKey;
import imports.aws.data_aws_kms_key.DataAwsKmsKeyConfig;
import imports.aws.iam_policy.IamPolicy;
import imports.aws.iam_policy.IamPolicyConfig;
import imports.aws.iam_role_policy_attachment.IamRolePolicyAttachment;
import imports.aws.iam_role_policy_attachment.IamRolePolicyAttachmentConfig;
import java.util.ArrayList;
import java.util.List;
import software.constructs.Construct;

/**
 * The controller's permissions for the configured release: one managed policy per statement group of
 * {@link ControllerPolicy}, attached to the controller role.
 */
public class ControllerPolicies extends Construct {
    public ControllerPolicies(
            Construct scope,
            String id,
            ClusterConfig config,
            ClusterFacts facts,
            ControllerRole controllerRole,
            NodeRole nodeRole) {
        super(scope, id);
        // The queue name is fixed by configuration, so its ARN is built here rather than read from the
        // interruption stack: the two stacks stay independent and can be applied in any order.
        String queueArn = "arn:" + facts.partition() + ":sqs:" + facts.region() + ":" + facts.accountId() + ":"
                + config.names().queue();
        ControllerPolicy.Scope policyScope = new ControllerPolicy.Scope(
                facts.partition(),
                facts.region(),
                facts.accountId(),
                config.clusterName(),
                facts.clusterArn(),
                queueArn,
                nodeRole.arn(),
                "ec2." + facts.dnsSuffix());
        List<ControllerPolicy.Group> groups = new ArrayList<>(ControllerPolicy.groups(config.apis(), policyScope));
        config.interruption()
                .kmsKeyId()
                .ifPresent(keyId -> groups.add(ControllerPolicy.queueEncryption(
                        // Resolves a key id, alias or ARN to the key's ARN, the only form an IAM resource accepts.
                        new DataAwsKmsKey(
                                        this,
                                        "queue-key",
                                        DataAwsKmsKeyConfig.builder()
                                                .keyId(TerraformStrings.literal(keyId))
                                                .build())
                                .getArn())));
        String roleName = controllerRole.name();
        for (ControllerPolicy.Group group : groups) {
            IamPolicy policy = new IamPolicy(
                    this,
                    group.name(),
                    IamPolicyConfig.builder()
                            .name(config.names().controllerPolicy(group.name()))
                            .description(
                                    "Karpenter controller of cluster " + config.clusterName() + ": " + group.name())
                            .policy(group.document().toJson())
                            .build());
            new IamRolePolicyAttachment(
                    this,
                    group.name() + "-attachment",
                    IamRolePolicyAttachmentConfig.builder()
                            .role(roleName)
                            .policyArn(policy.getArn())
                            .build());
        }
    }
}
