package dev.platform.karpenter.controller;

import static dev.platform.karpenter.testing.Json.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The values model without synthesis: what each setting adds, and what stays at the chart's default. */
class ControllerValuesTest {

    private static JsonNode render(ClusterConfig config) {
        return yaml(ControllerValues.of(config, "https://endpoint", "arn:role", "profile", "queue")
                .toYaml());
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
        String yaml = ControllerValues.of(
                        TestConfigs.config(
                                TestConfigs.V1,
                                "controller_identity = \"pod_identity\"",
                                "sts_regional_endpoints = true"),
                        "e",
                        "r",
                        "p",
                        "q")
                .toYaml();

        JsonNode annotation =
                yaml(yaml).path("serviceAccount").path("annotations").path("eks.amazonaws.com/sts-regional-endpoints");
        assertThat(annotation.isTextual()).isTrue();
        assertThat(annotation.textValue()).isEqualTo("true");
    }

    @Test
    void v1ValuesNeverCarryAnInstanceProfile() {
        ControllerValues values = ControllerValues.of(TestConfigs.config(TestConfigs.V1), "e", "r", "profile", "q");

        assertThat(values.defaultInstanceProfile()).isEmpty();
        assertThat(values.toYaml()).doesNotContain("profile");
    }

    @Test
    void ownRequiredNodeTermsKeepTheChartsRuleAgainstKarpentersNodesAndOtherAffinitiesStayAsWritten() {
        Map<String, Object> arm64 = requirement("kubernetes.io/arch", "In", "arm64");
        Map<String, Object> offNodePools = requirement("karpenter.sh/nodepool", "DoesNotExist");
        Map<String, Object> namedA = requirement("metadata.name", "In", "a");
        Map<String, Object> own = requiredNodeTerms(
                Map.of("matchExpressions", List.of(arm64)),
                Map.of("matchExpressions", List.of(offNodePools)),
                Map.of("matchFields", List.of(namedA)));
        assertThat(ControllerValues.offKarpenterNodes(own, List.of("karpenter.sh/nodepool")))
                .isEqualTo(requiredNodeTerms(
                        Map.of("matchExpressions", List.of(arm64, offNodePools)),
                        Map.of("matchExpressions", List.of(offNodePools)),
                        Map.of("matchFields", List.of(namedA), "matchExpressions", List.of(offNodePools))));

        // Without required node terms of ours, Helm's map merge keeps the chart's own.
        Map<String, Object> preferredOnly = Map.of(
                "nodeAffinity",
                Map.of("preferredDuringSchedulingIgnoredDuringExecution", List.of(Map.of("weight", 1L))),
                "podAntiAffinity",
                Map.of());
        assertThat(ControllerValues.offKarpenterNodes(preferredOnly, List.of("karpenter.sh/nodepool")))
                .isSameAs(preferredOnly);

        // 0.32 keeps the Provisioners beside the NodePools: off the nodes of both.
        Map<String, Object> oneTerm = requiredNodeTerms(Map.of("matchExpressions", List.of()));
        assertThat(ControllerValues.offKarpenterNodes(
                        oneTerm, List.of("karpenter.sh/provisioner-name", "karpenter.sh/nodepool")))
                .isEqualTo(requiredNodeTerms(Map.of(
                        "matchExpressions",
                        List.of(requirement("karpenter.sh/provisioner-name", "DoesNotExist"), offNodePools))));
    }

    @Test
    void controllerValuesMergeOverTheTypedValuesKeyByKeyAndKeepTheirNulls() {
        JsonNode values = render(TestConfigs.config(
                TestConfigs.V1,
                "controller_resources = { requests = { cpu = 1, memory = \"1Gi\" } }",
                "controller_values = {",
                "  replicas = 1",
                "  nodeSelector = null",
                "  controller = { resources = { requests = { memory = \"2Gi\" } } }",
                "  serviceAccount = { annotations = { \"example.com/team\" = \"a: b\\n\" } }",
                "}"));

        assertThat(values.path("replicas").asInt()).isEqualTo(1);
        assertThat(values.has("nodeSelector")).isTrue();
        assertThat(values.path("nodeSelector").isNull()).isTrue();
        assertThat(values.at("/controller/resources")).isEqualTo(yaml("requests: {cpu: \"1\", memory: 2Gi}"));
        assertThat(values.at("/serviceAccount/annotations"))
                .isEqualTo(yaml("{eks.amazonaws.com/role-arn: \"arn:role\", example.com/team: \"a: b\\n\"}"));
        assertThat(values.at("/settings/clusterName").asText()).isEqualTo("demo");
    }

    @Test
    void requiredNodeTermsTheKubernetesApiWouldRefuseStayAsWritten() {
        JsonNode values = render(TestConfigs.config(
                TestConfigs.V1,
                "controller_values = { affinity = { nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution"
                        + " = { nodeSelectorTerms = [null, \"x\", { matchExpressions = null }, {}] } } } }"));

        assertThat(values.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms"))
                .isEqualTo(yaml("""
                        - null
                        - x
                        - {matchExpressions: null}
                        - matchExpressions: [{key: karpenter.sh/nodepool, operator: DoesNotExist}]
                        """));
    }

    /** A node affinity whose required terms are {@code terms}, as a user writes it in controller_affinity. */
    private static Map<String, Object> requiredNodeTerms(Map<?, ?>... terms) {
        return Map.of(
                "nodeAffinity",
                Map.of("requiredDuringSchedulingIgnoredDuringExecution", Map.of("nodeSelectorTerms", List.of(terms))));
    }

    /** One node selector requirement; Exists and DoesNotExist take no values. */
    private static Map<String, Object> requirement(String key, String operator, String... values) {
        return values.length == 0
                ? Map.of("key", key, "operator", operator)
                : Map.of("key", key, "operator", operator, "values", List.of(values));
    }
}
