package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.Token;
import dev.platform.karpenter.config.ClusterConfig;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroup;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroupConfig;
import software.constructs.Construct;

/**
 * The role of an existing managed node group (or iam_role_arn), as in the seed. That role can already join the
 * cluster, so nothing is added for it: a second access entry for the same principal fails with 409.
 */
public class ReusedNodeRole extends Construct implements NodeRole {
    private final String arn;

    public ReusedNodeRole(Construct scope, String id, ClusterConfig config) {
        super(scope, id);
        arn = config.iam().nodeRoleArn().orElseGet(() -> new DataAwsEksNodeGroup(this, "node-group",
                DataAwsEksNodeGroupConfig.builder()
                        .clusterName(config.clusterName())
                        .nodeGroupName(config.iam().nodeGroupName())
                        .build())
                .getNodeRoleArn());
    }

    @Override
    public String arn() {
        return arn;
    }

    /** The last segment of the ARN: a role ARN may carry a path (arn:aws:iam::123456789012:role/path/NAME). */
    @Override
    public String name() {
        return Token.asString(Fn.element(Fn.reverse(Fn.split("/", arn)), 0));
    }
}
