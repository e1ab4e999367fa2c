package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.TestConfigs;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MonitoringSettingsTest {

    @Test
    void offByDefault() {
        assertThat(config(V1).controller().monitoring()).isEqualTo(MonitoringSettings.OFF);
    }

    @Test
    void takesBothSwitchesAndLabels() {
        MonitoringSettings monitoring = config(
                        V1,
                        "monitoring = { prometheus_rules = true, grafana_dashboards = true,"
                                + " labels = { release = \"kube-prometheus-stack\", \"example.com/team\" = \"platform\" } }")
                .controller()
                .monitoring();

        assertThat(monitoring.prometheusRules()).isTrue();
        assertThat(monitoring.grafanaDashboards()).isTrue();
        assertThat(monitoring.labels())
                .as("in the order written (Map.of has none)")
                .containsExactly(
                        org.assertj.core.api.Assertions.entry("release", "kube-prometheus-stack"),
                        org.assertj.core.api.Assertions.entry("example.com/team", "platform"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void rejectsBadInputWithOneLineNamingTheKey(String description, String line, String message) {
        assertThatThrownBy(() -> TestConfigs.parse(tfvars(V1, line)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(message)
                .hasMessageNotContaining("\n");
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(
                        "unknown key",
                        "monitoring = { service_monitor = true }",
                        "monitoring.service_monitor is not allowed; monitoring takes prometheus_rules,"
                                + " grafana_dashboards, labels"),
                Arguments.of(
                        "switch not a bool",
                        "monitoring = { prometheus_rules = \"yes\" }",
                        "monitoring.prometheus_rules must be true or false"),
                Arguments.of(
                        "label key Kubernetes refuses",
                        "monitoring = { prometheus_rules = true, labels = { \"bad key!\" = \"x\" } }",
                        "monitoring.labels must hold Kubernetes label keys"),
                Arguments.of(
                        "label value Kubernetes refuses",
                        "monitoring = { prometheus_rules = true, labels = { team = \"a b\" } }",
                        "monitoring.labels.team"),
                Arguments.of(
                        "labels without anything to label",
                        "monitoring = { labels = { team = \"a\" } }",
                        "monitoring.labels labels nothing: set prometheus_rules or grafana_dashboards to true"));
    }
}
