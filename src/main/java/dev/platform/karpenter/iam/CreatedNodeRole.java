package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.policy.IamPolicyDocument;
import dev.platform.karpenter.policy.IamPolicyDocument.Effect;
import dev.platform.karpenter.policy.IamPolicyDocument.Principal;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import imports.aws.eks_access_entry.EksAccessEntry;
import imports.aws.iam_role.IamRole;
import imports.aws.iam_role.IamRoleConfig;
import imports.aws.iam_role_policy_attachment.IamRolePolicyAttachment;
import imports.aws.iam_role_policy_attachment.IamRolePolicyAttachmentConfig;
import java.util.ArrayList;
import java.util.List;
import software.constructs.Construct;

/**
 * A node role made for Karpenter (create_iam_role = true), as upstream's KarpenterNodeRole: trusted by EC2, with
 * the worker, CNI, SSM and the release's ECR managed policies, and an EC2_LINUX access entry so its nodes can join.
 */
public class CreatedNodeRole extends NodeRole {
    /** Every node role needs these; the ECR policy depends on the release. */
    private static final List<String> BASE_POLICIES =
            List.of("AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonSSMManagedInstanceCore");

    static final String CONFIG_MAP_ONLY = "create_iam_role = true gives the new node role an EKS access entry, but the "
            + "cluster's authentication mode is CONFIG_MAP: switch it to API_AND_CONFIG_MAP (aws eks update-cluster-config "
            + "--access-config authenticationMode=API_AND_CONFIG_MAP) or reuse a node group's role (create_iam_role = false).";

    public CreatedNodeRole(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        super(scope, id);
        IamPolicyDocument trust =
                IamPolicyDocument.of(Statement.of("", Effect.Allow, List.of("sts:AssumeRole"), List.of(), List.of())
                        .withPrincipal(Principal.service("ec2." + facts.dnsSuffix())));
        IamRole role = new IamRole(
                this,
                "role",
                IamRoleConfig.builder()
                        .name(config.adoption()
                                .nodeRole()
                                .map(TerraformStrings::literal)
                                .orElse(config.names().nodeRole()))
                        .description("Nodes launched by Karpenter in cluster " + config.clusterName())
                        .assumeRolePolicy(trust.toJson())
                        .build());
        config.adoption().nodeRole().map(TerraformStrings::literal).ifPresent(role::importFrom);
        String arn = role.getArn();
        String name = role.getName();
        identify(arn, name);
        List<String> policies = new ArrayList<>(BASE_POLICIES);
        policies.add(config.release().nodeEcrPolicyName());
        for (String policy : policies) {
            new IamRolePolicyAttachment(
                    this,
                    policy,
                    IamRolePolicyAttachmentConfig.builder()
                            .role(name)
                            .policyArn(facts.awsManagedPolicyArn(policy))
                            .build());
        }
        EksAccessEntry accessEntry = NodeAccessEntry.of(this, "access-entry", config, facts, arn, CONFIG_MAP_ONLY);
        config.adoption().nodeAccessEntry().map(TerraformStrings::literal).ifPresent(accessEntry::importFrom);
    }
}
