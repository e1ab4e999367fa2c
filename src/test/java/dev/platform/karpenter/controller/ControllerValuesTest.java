package dev.platform.karpenter.controller;

import static dev.platform.karpenter.testing.Json.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.TestConfigs;
import org.junit.jupiter.api.Test;

/** The values model without synthesis: what each setting adds, and what stays at the chart's default. */
class ControllerValuesTest {

    private static JsonNode render(ClusterConfig config) {
        return yaml(ControllerValues.of(config, "https://endpoint", "arn:role", "profile", "queue").toYaml());
    }

    @Test
    void defaultsSetTheClusterTheIdentityTheReplicasAndUpstreamGuidesResources() {
        assertThat(render(TestConfigs.config(TestConfigs.V1))).isEqualTo(yaml("""
                settings: {clusterName: demo, clusterEndpoint: "https://endpoint", interruptionQueue: queue}
                serviceAccount:
                  name: karpenter
                  annotations: {eks.amazonaws.com/role-arn: "arn:role"}
                replicas: 2
                controller:
                  resources:
                    requests: {cpu: "1", memory: 1Gi}
                    limits: {cpu: "1", memory: 1Gi}
                """));
    }

    @Test
    void podIdentityLeavesTheServiceAccountUnannotated() {
        JsonNode values = render(TestConfigs.config(TestConfigs.V1, "controller_identity = \"pod_identity\""));

        assertThat(values.path("serviceAccount").has("annotations")).isFalse();
        assertThat(values.at("/settings/clusterName").textValue()).isEqualTo("demo");
    }

    @Test
    void stsRegionalEndpointsIsAQuotedStringInTheYaml() {
        String yaml = ControllerValues.of(TestConfigs.config(TestConfigs.V1, "controller_identity = \"pod_identity\"",
                "sts_regional_endpoints = true"), "e", "r", "p", "q").toYaml();

        JsonNode annotation = yaml(yaml).path("serviceAccount").path("annotations").path("eks.amazonaws.com/sts-regional-endpoints");
        assertThat(annotation.isTextual()).isTrue();
        assertThat(annotation.textValue()).isEqualTo("true");
    }

    @Test
    void v1ValuesNeverCarryAnInstanceProfile() {
        ControllerValues values = ControllerValues.of(TestConfigs.config(TestConfigs.V1), "e", "r", "profile", "q");

        assertThat(values.defaultInstanceProfile()).isEmpty();
        assertThat(values.toYaml()).doesNotContain("profile");
    }
}
