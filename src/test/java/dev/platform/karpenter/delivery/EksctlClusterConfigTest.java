package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.testing.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** cluster/eks-cluster.yaml makes the cluster that terraform.tfvars.example describes. */
class EksctlClusterConfigTest {
    @Test
    void matchesTheExampleConfiguration() {
        JsonNode cluster = Json.readYaml(Path.of("cluster/eks-cluster.yaml"));
        ClusterConfig example = ConfigLoader.read(Path.of("terraform.tfvars.example"));

        assertThat(cluster.path("kind").asText()).isEqualTo("ClusterConfig");
        assertThat(cluster.path("metadata").path("name").asText()).isEqualTo(example.clusterName());
        assertThat(cluster.path("metadata").path("region").asText()).isEqualTo(example.region());
        assertThat(example.release()
                        .supportedKubernetes()
                        .contains(cluster.path("metadata").path("version").asText()))
                .as("the example chart supports the cluster's Kubernetes version")
                .isTrue();
        assertThat(cluster.path("metadata")
                        .path("tags")
                        .path(example.poolsAndClasses().nodeClass("default").discoveryTagKey())
                        .asText())
                .isEqualTo(example.poolsAndClasses().nodeClass("default").discoveryTagValue());
        assertThat(cluster.path("iam").path("withOIDC").asBoolean()).isTrue();
        assertThat(cluster.path("managedNodeGroups").findValuesAsText("name"))
                .contains(example.iam().nodeGroupName());
        // EKS publishes no Amazon Linux 2 AMI for Kubernetes 1.33 and later.
        assertThat(cluster.path("managedNodeGroups").findValuesAsText("amiFamily"))
                .containsOnly("AmazonLinux2023");
        assertThat(cluster.at("/accessConfig/authenticationMode").asText()).isEqualTo("API_AND_CONFIG_MAP");
    }

    /** What EKS offers on 2026-12-01 (1.31 left extended support on 2026-11-26): the example must run on all of it. */
    @Test
    void theExampleRunsOnEveryKubernetesVersionEksOffers() {
        ClusterConfig example = ConfigLoader.read(Path.of("terraform.tfvars.example"));
        for (int minor = 32; minor <= 36; minor++) {
            assertThat(example.release().supportedKubernetes().contains("1." + minor))
                    .as("1." + minor)
                    .isTrue();
        }
    }
}
