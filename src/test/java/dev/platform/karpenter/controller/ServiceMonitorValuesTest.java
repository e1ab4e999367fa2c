package dev.platform.karpenter.controller;

import static dev.platform.karpenter.testing.Json.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.schema.ChartValuesSchema;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** With monitoring.prometheus_rules, the chart's own ServiceMonitor is turned on, in every release's values. */
class ServiceMonitorValuesTest {
    private static final String MONITORING =
            "monitoring = { prometheus_rules = true, labels = { release = \"kube-prometheus-stack\" } }";

    static Stream<KarpenterRelease> releases() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::newestRelease);
    }

    private static JsonNode values(ClusterConfig config) {
        return yaml(ControllerValues.of(config, "https://endpoint", "arn:role", "profile", "queue")
                .toYaml());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void serviceMonitorIsOnWithTheLabelsAndTheReleasesChartTakesThem(KarpenterRelease release) {
        ClusterConfig config = TestConfigs.config(release.chartVersion(), MONITORING);
        JsonNode values = values(config);

        assertThat(values.at("/serviceMonitor/enabled").booleanValue()).isTrue();
        assertThat(values.at("/serviceMonitor/additionalLabels"))
                .isEqualTo(Json.tree(Map.of("release", "kube-prometheus-stack")));
        ChartValuesSchema chart = ChartValuesSchema.of(release);
        assertThat(chart.takes(List.of("serviceMonitor", "enabled"))).isTrue();
        assertThat(chart.takes(List.of("serviceMonitor", "additionalLabels"))).isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = Json.mapper().convertValue(values, Map.class);
        assertThat(chart.check(tree)).as(release.toString()).isEmpty();
        assertThat(chart.check(Map.of("serviceMonitor", Map.of("enabeld", true))))
                .as("the check refuses a misspelt key")
                .isPresent();
    }

    @Test
    void withoutPrometheusRulesTheChartKeepsItsServiceMonitorOff() {
        assertThat(values(TestConfigs.config(TestConfigs.V1)).has("serviceMonitor"))
                .isFalse();
        assertThat(values(TestConfigs.config(TestConfigs.V1, "monitoring = { grafana_dashboards = true }"))
                        .has("serviceMonitor"))
                .isFalse();
    }

    @Test
    void controllerValuesHaveTheLastWord() {
        JsonNode values = values(TestConfigs.config(
                TestConfigs.V1, MONITORING, "controller_values = { serviceMonitor = { enabled = false } }"));

        assertThat(values.at("/serviceMonitor/enabled").booleanValue()).isFalse();
    }
}
