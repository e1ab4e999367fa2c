package dev.platform.karpenter.aws;

import com.hashicorp.cdktf.Fn;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.config.ClusterConfig;
import imports.aws.data_aws_eks_cluster.DataAwsEksCluster;
import imports.helm.provider.HelmProvider;
import imports.helm.provider.HelmProviderConfig;
import imports.helm.provider.HelmProviderKubernetes;
import imports.helm.provider.HelmProviderKubernetesExec;
import java.util.List;
import software.constructs.Construct;

/**
 * How a stack reaches the cluster's Kubernetes API: the cluster read at plan time (with the version guards of
 * {@link ClusterGuards}), and a helm provider on it.
 *
 * <p>The helm provider authenticates with an exec block ({@code aws eks get-token}) rather than the
 * aws_eks_cluster_auth data source: that token is fetched once per run and expires after 15 minutes, while a
 * destroy of the node pools waits for Karpenter to drain and terminate its nodes, which can take longer. The exec
 * plugin asks for a fresh token on every request; it needs the AWS CLI, a prerequisite of this project anyway.
 */
public final class ClusterAccess extends Construct {
    private final DataAwsEksCluster cluster;
    private final String endpoint;
    private final HelmProvider helm;

    public ClusterAccess(TerraformStack stack, String id, ClusterConfig config) {
        super(stack, id);
        cluster = ClusterGuards.guardedCluster(this, config);
        endpoint = cluster.getEndpoint();
        helm = new HelmProvider(
                this,
                "helm",
                HelmProviderConfig.builder()
                        .kubernetes(HelmProviderKubernetes.builder()
                                .host(endpoint)
                                // One reference to the nested attribute, rather than walking the typed lists (a jsii
                                // call a step).
                                .clusterCaCertificate(
                                        Fn.base64decode(cluster.getStringAttribute("certificate_authority[0].data")))
                                .exec(HelmProviderKubernetesExec.builder()
                                        .apiVersion("client.authentication.k8s.io/v1beta1")
                                        .command("aws")
                                        .args(List.of(
                                                "eks",
                                                "get-token",
                                                "--cluster-name",
                                                config.clusterName(),
                                                "--region",
                                                config.region(),
                                                "--output",
                                                "json"))
                                        .build())
                                .build())
                        .build());
        // The published helm bindings declare the bare source "helm"; Terraform reads that as hashicorp/helm, but
        // the full address says so to a reader and to tools that match on it.
        stack.addOverride("terraform.required_providers.helm.source", "hashicorp/helm");
    }

    /** The existing cluster (endpoint, CA, Kubernetes version, OIDC issuer), read at plan time. */
    public DataAwsEksCluster cluster() {
        return cluster;
    }

    /** The cluster's API server URL, a reference to the cluster data source. */
    public String endpoint() {
        return endpoint;
    }

    public HelmProvider helm() {
        return helm;
    }
}
