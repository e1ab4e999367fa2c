package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.Token;
import dev.platform.karpenter.aws.ClusterGuards;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.Regions;
import imports.aws.data_aws_caller_identity.DataAwsCallerIdentity;
import imports.aws.data_aws_eks_cluster.DataAwsEksCluster;
import imports.aws.data_aws_partition.DataAwsPartition;
import imports.aws.data_aws_region.DataAwsRegion;
import java.util.List;
import software.constructs.Construct;

/**
 * What the IAM documents need to know about the account and the existing cluster, read at plan time so no ARN is
 * ever typed by hand (and the partition is right in China and GovCloud).
 *
 * <p>Each attribute is a reference token fetched from the jsii kernel once and then reused: every read is a round
 * trip to Node.js, which adds up over many clusters.
 */
public class ClusterFacts extends Construct {
    private final ClusterStack stack;
    private final DataAwsEksCluster cluster;
    private final String partitionName;
    private final String regionName;
    private final String configuredRegion;
    private final String accountId;
    private String oidcIssuerUrl;
    private String oidcIssuerHostPath;

    public ClusterFacts(ClusterStack stack, String id, ClusterConfig config) {
        super(stack, id);
        this.stack = stack;
        partitionName = new DataAwsPartition(this, "partition").getPartition();
        regionName = new DataAwsRegion(this, "region").getName();
        configuredRegion = config.region();
        accountId = new DataAwsCallerIdentity(this, "account").getAccountId();
        // The version guards: this stack is among the first deploy '*' plans.
        cluster = ClusterGuards.guardedCluster(this, config);
    }

    /** aws, aws-cn or aws-us-gov. */
    public String partition() {
        return partitionName;
    }

    /**
     * amazonaws.com, or amazonaws.com.cn in China: the suffix of service principals, a literal from the configured
     * region's partition metadata ({@link Regions#dnsSuffix}), the one source every stack uses.
     */
    public String dnsSuffix() {
        return Regions.dnsSuffix(configuredRegion);
    }

    public String region() {
        return regionName;
    }

    public String accountId() {
        return accountId;
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
        if (oidcIssuerUrl == null) {
            // One reference to the nested attribute, rather than walking the typed lists (a jsii call a step).
            oidcIssuerUrl = cluster.getStringAttribute("identity[0].oidc[0].issuer");
        }
        return oidcIssuerUrl;
    }

    /**
     * The issuer without its scheme: the prefix of the OIDC condition keys (e.g. {@code <issuer>:sub}). A local
     * value, so a policy document embedding it holds a plain reference rather than a call with quoted arguments.
     */
    public String oidcIssuerHostPath() {
        if (oidcIssuerHostPath == null) {
            oidcIssuerHostPath = stack.local("oidc_issuer_host_path", Fn.replace(oidcIssuerUrl(), "https://", ""));
        }
        return oidcIssuerHostPath;
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
