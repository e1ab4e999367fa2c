package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.monitoring.AlertRules;
import dev.platform.karpenter.monitoring.Dashboards;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.CoreObjects;
import dev.platform.karpenter.testing.kubernetes.HelmRender;
import dev.platform.karpenter.testing.kubernetes.TerraformReferences;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The monitoring setting's release in the nodepools stack, rendered by real Helm: the PrometheusRule holds the rules
 * of the release, and each dashboard is a ConfigMap for the Grafana sidecar, valid as the API server checks it.
 */
@KernelOnlyThroughSynthesized
class MonitoringReleaseTest {
    private static final String LABELS = "labels = { release = \"kube-prometheus-stack\" }";

    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster(
                    "both",
                    TestConfigs.V1,
                    "monitoring = { prometheus_rules = true, grafana_dashboards = true, " + LABELS + " }")
            .cluster("seed", "v0.30.0", "monitoring = { prometheus_rules = true }")
            .cluster("plain", TestConfigs.V1)
            .synthesize();

    private static List<JsonNode> rendered(String cluster) {
        JsonNode stack = APP.stack(cluster + "-nodepools");
        JsonNode release = Synthesized.resources(stack, "helm_release").path("monitoring");
        assertThat(release.path("name").asText()).isEqualTo("karpenter-monitoring");
        String values =
                TerraformReferences.replace(release.path("values").get(0).asText(), expression -> {
                    throw new AssertionError("the monitoring values reference nothing, got ${" + expression + "}");
                });
        return HelmRender.template(
                APP.stackDir(cluster + "-nodepools")
                        .resolve(release.path("chart").asText()),
                "karpenter-monitoring",
                "karpenter",
                values);
    }

    @Test
    void prometheusRuleHoldsTheReleasesRulesWithTheLabels() {
        List<JsonNode> objects = rendered("both");
        JsonNode rule = HelmRender.find(objects, "PrometheusRule", "karpenter");

        assertThat(rule.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.at("/metadata/namespace").asText()).isEqualTo("karpenter");
        assertThat(rule.at("/metadata/labels")).isEqualTo(Json.tree(Map.of("release", "kube-prometheus-stack")));
        assertThat(rule.at("/spec/groups"))
                .isEqualTo(AlertRules.rulesDocument(KarpenterRelease.of(TestConfigs.V1))
                        .get("groups"));
    }

    @Test
    void dashboardsAreConfigMapsTheGrafanaSidecarLoads() {
        List<JsonNode> objects = rendered("both");
        KarpenterRelease release = KarpenterRelease.of(TestConfigs.V1);

        for (Dashboards.Dashboard dashboard : Dashboards.of(release)) {
            JsonNode configMap = HelmRender.find(objects, "ConfigMap", dashboard.uid());
            assertThat(CoreObjects.errors(configMap)).isEmpty();
            assertThat(configMap.at("/metadata/labels/grafana_dashboard").asText())
                    .isEqualTo("1");
            assertThat(configMap.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
            // ${datasource} reaches Grafana as written: Terraform's escape is undone at apply.
            assertThat(configMap.path("data").path(dashboard.file()).asText())
                    .isEqualTo(Dashboards.json(dashboard, release))
                    .contains("${datasource}");
        }
    }

    @Test
    void rulesAloneMakeNoConfigMapAndUseTheReleasesNames() {
        List<JsonNode> objects = rendered("seed");

        assertThat(HelmRender.ofKind(objects, "ConfigMap")).isEmpty();
        assertThat(HelmRender.find(objects, "PrometheusRule", "karpenter").toString())
                .contains("karpenter_provisioner_usage");
    }

    @Test
    void withoutMonitoringTheStackHasOnlyThePoolsRelease() {
        ClusterConfig plain = TestConfigs.config(TestConfigs.V1);
        assertThat(plain.controller().monitoring().deploysAnything()).isFalse();
        assertThat(Synthesized.resources(APP.stack("plain-nodepools"), "helm_release")
                        .has("monitoring"))
                .isFalse();
        assertThat(Synthesized.resources(APP.stack("plain-nodepools"), "helm_release")
                        .has("pools"))
                .isTrue();
    }
}
