package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroup;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroupConfig;
import imports.aws.data_aws_eks_node_groups.DataAwsEksNodeGroups;
import imports.aws.data_aws_eks_node_groups.DataAwsEksNodeGroupsConfig;
import imports.aws.eks_access_entry.EksAccessEntry;
import software.constructs.Construct;

/**
 * iam_role_arn names a role; EKS gave it an access entry (or aws-auth mapping) only if it is the role of a managed
 * node group. Otherwise nodes with it cannot join the cluster, so this adds an EC2_LINUX access entry for it, decided
 * at plan time: the roles of the cluster's managed node groups are read, and the entry exists only when the role is
 * none of them (a second entry for a node group's role would fail with 409).
 */
final class GivenRoleAccessEntry extends Construct {
    static final String CONFIG_MAP_ONLY = "iam_role_arn names a role that belongs to no managed node group of the "
            + "cluster, so its nodes could not join without an access entry, and the cluster's authentication mode is "
            + "CONFIG_MAP, which has none: map the role in aws-auth (groups system:bootstrappers, system:nodes) and set "
            + "iam_role_access_entry = false, or switch the cluster to API_AND_CONFIG_MAP (aws eks update-cluster-config "
            + "--access-config authenticationMode=API_AND_CONFIG_MAP).";

    GivenRoleAccessEntry(Construct scope, String id, ClusterConfig config, ClusterFacts facts, String roleArn) {
        super(scope, id);
        DataAwsEksNodeGroups groups = new DataAwsEksNodeGroups(
                this,
                "node-groups",
                DataAwsEksNodeGroupsConfig.builder()
                        .clusterName(config.clusterName())
                        .build());
        groups.overrideLogicalId("given_role_node_groups");
        DataAwsEksNodeGroup group = new DataAwsEksNodeGroup(
                this,
                "node-group",
                DataAwsEksNodeGroupConfig.builder()
                        .clusterName(config.clusterName())
                        .nodeGroupName("${each.value}")
                        .build());
        group.overrideLogicalId("given_role_node_group");
        group.addOverride("for_each", "${data.aws_eks_node_groups.given_role_node_groups.names}");
        EksAccessEntry entry = NodeAccessEntry.of(this, "access-entry", config, facts, roleArn, CONFIG_MAP_ONLY);
        entry.addOverride(
                "count",
                "${contains([for g in data.aws_eks_node_group.given_role_node_group : g.node_role_arn], "
                        + TerraformStrings.quoted(roleArn) + ") ? 0 : 1}");
    }
}
