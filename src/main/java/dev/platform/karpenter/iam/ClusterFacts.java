package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.Token;
import dev.platform.karpenter.config.ClusterConfig;
import imports.aws.data_aws_caller_identity.DataAwsCallerIdentity;
import imports.aws.data_aws_eks_cluster.DataAwsEksCluster;
import imports.aws.data_aws_eks_cluster.DataAwsEksClusterConfig;
import imports.aws.data_aws_partition.DataAwsPartition;
import imports.aws.data_aws_region.DataAwsRegion;
import java.util.List;
import software.constructs.Construct;

/**
 * What the IAM documents need to know about the account and the existing cluster, read at plan time so no ARN is
 * ever typed by hand (and the partition is right in China and GovCloud).
 */
public class ClusterFacts extends Construct {
    private final DataAwsPartition partition;
    private final DataAwsRegion region;
    private final DataAwsCallerIdentity account;
    private final DataAwsEksCluster cluster;

    public ClusterFacts(Construct scope, String id, ClusterConfig config) {
        super(scope, id);
        partition = new DataAwsPartition(this, "partition");
        region = new DataAwsRegion(this, "region");
        account = new DataAwsCallerIdentity(this, "account");
        cluster = new DataAwsEksCluster(this, "cluster", DataAwsEksClusterConfig.builder().name(config.clusterName()).build());
    }

    /** aws, aws-cn or aws-us-gov. */
    public String partition() {
        return partition.getPartition();
    }

    /** amazonaws.com, or amazonaws.com.cn in China: the suffix of service principals. */
    public String dnsSuffix() {
        return partition.getDnsSuffix();
    }

    public String region() {
        return region.getName();
    }

    public String accountId() {
        return account.getAccountId();
    }

    /** The cluster's name as EKS reports it, so resources that take it also wait for the cluster to be read. */
    public String clusterName() {
        return cluster.getName();
    }

    public String clusterArn() {
        return cluster.getArn();
    }

    /** The cluster's OIDC issuer URL, {@code https://oidc.eks.<region>.amazonaws.com/id/<id>}. */
    public String oidcIssuerUrl() {
        return cluster.getIdentity().get(0).getOidc().get(0).getIssuer();
    }

    /** The issuer without its scheme: the prefix of the OIDC condition keys (e.g. {@code <issuer>:sub}). */
    public String oidcIssuerHostPath() {
        return Fn.replace(oidcIssuerUrl(), "https://", "");
    }

    /**
     * API, API_AND_CONFIG_MAP or CONFIG_MAP: whether access entries work on this cluster. Empty where EKS reports no
     * access configuration (moto does not), so that a check on it cannot fail on a missing index.
     */
    public String authenticationMode() {
        return Token.asString(Fn.doTry(List.of(cluster.getAccessConfig().get(0).getAuthenticationMode(), "")));
    }

    /** An AWS managed policy, e.g. {@code arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy}. */
    public String awsManagedPolicyArn(String policyName) {
        return "arn:" + partition() + ":iam::aws:policy/" + policyName;
    }
}
