package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.MONITORING;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The monitoring setting: what the stacks deploy for a Prometheus Operator and a Grafana on the cluster. The synth
 * output holds the rules file and the dashboards either way.
 *
 * @param prometheusRules    prometheus_rules: a PrometheusRule with the alert rules, and the chart's ServiceMonitor
 * @param grafanaDashboards  grafana_dashboards: the dashboards as ConfigMaps the Grafana sidecar loads
 * @param labels             labels: on the PrometheusRule, the ServiceMonitor and the dashboards' ConfigMaps, for the
 *                           selectors of the Prometheus and Grafana that should pick them up
 */
public record MonitoringSettings(boolean prometheusRules, boolean grafanaDashboards, Map<String, String> labels) {
    public static final String PROMETHEUS_RULES = "prometheus_rules";
    public static final String GRAFANA_DASHBOARDS = "grafana_dashboards";
    public static final String LABELS = "labels";
    public static final List<String> KEYS = List.of(PROMETHEUS_RULES, GRAFANA_DASHBOARDS, LABELS);

    public static final MonitoringSettings OFF = new MonitoringSettings(false, false, Map.of());

    /** Whether anything is deployed to the cluster for monitoring. */
    public boolean deploysAnything() {
        return prometheusRules || grafanaDashboards;
    }

    static MonitoringSettings from(SettingsReader settings) {
        Map<String, Object> raw = settings.get(MONITORING);
        String key = MONITORING.key();
        SettingsReader.requireFields(key, raw, KEYS, String.join(", ", KEYS));
        boolean rules = flag(raw, PROMETHEUS_RULES);
        boolean dashboards = flag(raw, GRAFANA_DASHBOARDS);
        Map<String, String> labels =
                raw.get(LABELS) == null ? Map.of() : SettingsReader.toStringMap(key + "." + LABELS, raw.get(LABELS));
        Map<String, String> checked = new LinkedHashMap<>();
        labels.forEach((name, value) -> {
            Kubernetes.requireLabelKey(key + "." + LABELS, name);
            Kubernetes.requireLabelValue(key + "." + LABELS + "." + name, value);
            checked.put(name, value);
        });
        ConfigException.require(
                rules || dashboards || checked.isEmpty(),
                () -> key + "." + LABELS + " labels nothing: set " + PROMETHEUS_RULES + " or " + GRAFANA_DASHBOARDS
                        + " to true");
        return new MonitoringSettings(rules, dashboards, Collections.unmodifiableMap(checked));
    }

    private static boolean flag(Map<String, Object> raw, String field) {
        Object value = raw.get(field);
        return value != null
                && SettingsReader.cast(MONITORING.key() + "." + field, value, Boolean.class, "true or false");
    }
}
