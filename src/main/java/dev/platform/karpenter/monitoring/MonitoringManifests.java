package dev.platform.karpenter.monitoring;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.MonitoringSettings;
import dev.platform.karpenter.monitoring.Dashboards.Dashboard;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes objects monitoring deploys (setting monitoring): the alert rules as the Prometheus Operator's
 * PrometheusRule, and each dashboard as a ConfigMap the Grafana sidecar loads (label grafana_dashboard = "1").
 */
public final class MonitoringManifests {
    public static final String RULE_NAME = "karpenter";
    public static final String DASHBOARD_LABEL = "grafana_dashboard";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private MonitoringManifests() {}

    /** The objects of {@code config}'s monitoring setting, in the controller's namespace; none when it is off. */
    public static List<Map<String, Object>> of(ClusterConfig config) {
        MonitoringSettings monitoring = config.controller().monitoring();
        List<Map<String, Object>> objects = new ArrayList<>();
        if (monitoring.prometheusRules()) {
            Map<String, Object> rule = object(
                    "monitoring.coreos.com/v1",
                    "PrometheusRule",
                    RULE_NAME,
                    config,
                    new LinkedHashMap<>(monitoring.labels()));
            rule.put(
                    "spec",
                    Map.of(
                            "groups",
                            YAML.convertValue(
                                    AlertRules.rulesDocument(config.release()).get("groups"), List.class)));
            objects.add(rule);
        }
        if (monitoring.grafanaDashboards()) {
            for (Dashboard dashboard : Dashboards.of(config.release())) {
                Map<String, String> labels = new LinkedHashMap<>(monitoring.labels());
                labels.put(DASHBOARD_LABEL, "1");
                Map<String, Object> configMap = object("v1", "ConfigMap", dashboard.uid(), config, labels);
                configMap.put("data", Map.of(dashboard.file(), Dashboards.json(dashboard, config.release())));
                objects.add(configMap);
            }
        }
        return objects;
    }

    private static Map<String, Object> object(
            String apiVersion, String kind, String name, ClusterConfig config, Map<String, String> labels) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", config.namespace());
        if (!labels.isEmpty()) {
            metadata.put("labels", labels);
        }
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", apiVersion);
        object.put("kind", kind);
        object.put("metadata", metadata);
        return object;
    }
}
