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
        assertThat(example.release().supportedKubernetes().contains(cluster.path("metadata").path("version").asText()))
                .as("the example chart supports the cluster's Kubernetes version").isTrue();
        assertThat(cluster.path("metadata").path("tags").path(example.nodePools().discoveryTagKey()).asText())
                .isEqualTo(example.nodePools().discoveryTagValue());
        assertThat(cluster.path("iam").path("withOIDC").asBoolean()).isTrue();
        assertThat(cluster.path("managedNodeGroups").findValuesAsText("name")).contains(example.iam().nodeGroupName());
    }
}
