package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.Token;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroup;
import imports.aws.data_aws_eks_node_group.DataAwsEksNodeGroupConfig;
import java.util.Optional;
import software.constructs.Construct;

/**
 * The role of an existing managed node group (or iam_role_arn), as in the seed. A node group's role can already join
 * the cluster, so nothing is added for it: a second access entry for the same principal fails with 409. A role given
 * by iam_role_arn that is no node group's gets an access entry ({@link GivenRoleAccessEntry}).
 *
 * <p>The name is the last segment of the ARN, since a role ARN may carry a path
 * (arn:aws:iam::123456789012:role/path/NAME): computed here for iam_role_arn, by Terraform for the node group's role.
 */
public class ReusedNodeRole extends NodeRole {
    public ReusedNodeRole(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        super(scope, id);
        Optional<String> givenArn = config.iam().nodeRoleArn();
        if (givenArn.isPresent()) {
            String arn = givenArn.get();
            identify(arn, arn.substring(arn.lastIndexOf('/') + 1));
            if (config.iam().nodeRoleAccessEntry()) {
                new GivenRoleAccessEntry(this, "access-entry", config, facts, arn);
            }
        } else {
            String arn = new DataAwsEksNodeGroup(
                            this,
                            "node-group",
                            DataAwsEksNodeGroupConfig.builder()
                                    .clusterName(config.clusterName())
                                    .nodeGroupName(TerraformStrings.literal(
                                            config.iam().nodeGroupName()))
                                    .build())
                    .getNodeRoleArn();
            identify(arn, Token.asString(Fn.element(Fn.reverse(Fn.split("/", arn)), 0)));
        }
    }
}
