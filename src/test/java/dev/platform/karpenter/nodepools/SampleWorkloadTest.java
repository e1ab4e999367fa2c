package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** sample-workload/pause.yaml: the Deployment that makes Karpenter provision nodes when scaled up. */
class SampleWorkloadTest {

    @Test
    void isAnInflateDeploymentOfPausePodsAskingOneCpuEach() {
        JsonNode deployment = Json.readYaml(Path.of("sample-workload/pause.yaml"));

        assertThat(deployment.path("apiVersion").asText()).isEqualTo("apps/v1");
        assertThat(deployment.path("kind").asText()).isEqualTo("Deployment");
        assertThat(deployment.path("metadata").path("name").asText()).isEqualTo("inflate");
        assertThat(deployment.path("spec").path("replicas").isInt()).isTrue();
        assertThat(deployment.path("spec").path("replicas").asInt())
                .as("scaled up by hand")
                .isZero();
        JsonNode pod = deployment.path("spec").path("template");
        assertThat(deployment.path("spec").path("selector").path("matchLabels"))
                .isEqualTo(pod.path("metadata").path("labels"));
        assertThat(pod.path("spec").path("containers")).hasSize(1);
        JsonNode container = pod.path("spec").path("containers").get(0);
        assertThat(container.path("image").asText()).startsWith("public.ecr.aws/eks-distro/kubernetes/pause:");
        assertThat(container.path("resources").path("requests").path("cpu").asText())
                .isEqualTo("1");
    }
}
