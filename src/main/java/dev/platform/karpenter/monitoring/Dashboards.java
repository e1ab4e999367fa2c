package dev.platform.karpenter.monitoring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ReleaseMetrics;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's Grafana dashboards for one Karpenter release, in its own metric names: capacity and cost by pool, and
 * disruption and interruption. Written from scratch (upstream's dashboards were read, not copied), as Grafana's
 * dashboard JSON with a Prometheus data source variable.
 */
public final class Dashboards {
    public static final String CAPACITY_FILE = "karpenter-capacity.json";
    public static final String DISRUPTION_FILE = "karpenter-disruption.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String DATASOURCE = "${datasource}";

    /** One panel: a title, a unit and its queries with their legends. */
    public record Panel(String title, String unit, List<Query> queries) {}

    /** One PromQL query of a panel. */
    public record Query(String expr, String legend) {}

    /** One dashboard: its uid, title and panels. */
    public record Dashboard(String file, String uid, String title, List<Panel> panels) {
        /** Every PromQL expression of its panels. */
        public List<String> expressions() {
            return panels.stream()
                    .flatMap(panel -> panel.queries().stream())
                    .map(Query::expr)
                    .toList();
        }
    }

    private Dashboards() {}

    /** Both dashboards of {@code release}. */
    public static List<Dashboard> of(KarpenterRelease release) {
        return List.of(capacity(release), disruption(release));
    }

    static Dashboard capacity(KarpenterRelease release) {
        ReleaseMetrics m = ReleaseMetrics.of(release);
        String pool = m.nodeOwnerLabel();
        String cpu = m.nodesAllocatable() + "{resource_type=\"cpu\"}";
        List<Panel> panels = new ArrayList<>();
        panels.add(new Panel(
                "Nodes by pool",
                "short",
                List.of(new Query("count by (" + pool + ") (" + cpu + ")", "{{" + pool + "}}"))));
        panels.add(new Panel(
                "Allocatable vCPU by pool",
                "short",
                List.of(new Query("sum by (" + pool + ") (" + cpu + ")", "{{" + pool + "}}"))));
        panels.add(new Panel(
                "Share of pool limits used",
                "percentunit",
                List.of(new Query(
                        "max by (" + m.poolLabel() + ", resource_type) (" + m.poolUsage() + ") / max by ("
                                + m.poolLabel() + ", resource_type) (" + m.poolLimit() + ")",
                        "{{" + m.poolLabel() + "}} {{resource_type}}"))));
        // Priced at the dearest zone of each offering (max by instance type and capacity type), not joined on the
        // node's zone: an upper bound that spot prices differing by zone can make too high (docs/guides/alerts.md).
        panels.add(new Panel(
                "Estimated hourly cost by pool (on-demand and spot list prices)",
                "currencyUSD",
                List.of(new Query(
                        "sum by (" + pool + ") (count by (" + pool + ", instance_type, capacity_type) (" + cpu
                                + ") * on (instance_type, capacity_type) group_left max by (instance_type,"
                                + " capacity_type) (" + m.offeringPrice() + "))",
                        "{{" + pool + "}}"))));
        panels.add(new Panel(
                "Nodes by capacity type",
                "short",
                List.of(new Query("count by (capacity_type) (" + cpu + ")", "{{capacity_type}}"))));
        panels.add(new Panel(
                "Pods waiting for a node",
                "short",
                List.of(new Query(
                        "count(" + m.podState() + "{phase=\"Pending\", node=\"\"}) or vector(0)", "pending"))));
        return new Dashboard(CAPACITY_FILE, "karpenter-capacity", "Karpenter: capacity and cost by pool", panels);
    }

    static Dashboard disruption(KarpenterRelease release) {
        ReleaseMetrics m = ReleaseMetrics.of(release);
        List<Panel> panels = new ArrayList<>();
        m.disruptionDecisions()
                .ifPresent(decisions -> panels.add(new Panel(
                        "Disruption decisions per minute",
                        "short",
                        List.of(new Query("sum(rate(" + decisions + "[5m])) * 60", "decisions")))));
        panels.add(new Panel(
                "Drifted nodes waiting for replacement",
                "short",
                List.of(new Query(
                        "max(" + m.disruptionEligible() + "{" + m.driftSelector() + "}) or vector(0)", "drifted"))));
        panels.add(new Panel(
                "Nodes eligible for disruption",
                "short",
                List.of(new Query("max without (instance, pod) (" + m.disruptionEligible() + ")", ""))));
        panels.add(new Panel(
                "Interruption messages per minute",
                "short",
                List.of(new Query("sum(rate(" + m.interruptionMessagesReceived() + "[5m])) * 60", "received"))));
        panels.add(new Panel(
                "Interruption message wait, 90th percentile",
                "s",
                List.of(new Query(
                        "histogram_quantile(0.9, sum by (le) (rate(" + m.interruptionMessageAge() + "_bucket[10m])))",
                        "p90"))));
        panels.add(new Panel(
                "Cloud provider errors per minute",
                "short",
                List.of(new Query(
                        "sum by (method, error) (rate(" + m.cloudProviderErrors() + "[5m])) * 60",
                        "{{method}} {{error}}"))));
        return new Dashboard(DISRUPTION_FILE, "karpenter-disruption", "Karpenter: disruption and interruption", panels);
    }

    /** The dashboard as Grafana's JSON model, for the Grafana of {@code release}'s minor. */
    public static String json(Dashboard dashboard, KarpenterRelease release) {
        ObjectNode root = JSON.createObjectNode();
        root.put("uid", dashboard.uid());
        root.put("title", dashboard.title());
        root.put("description", "Karpenter " + release.chartVersion() + " (karpenter-cdktf; docs/guides/alerts.md)");
        root.putArray("tags").add("karpenter");
        root.put("schemaVersion", 39);
        root.put("editable", true);
        root.putObject("time").put("from", "now-6h").put("to", "now");
        ObjectNode datasource = root.putObject("templating").putArray("list").addObject();
        datasource.put("name", "datasource");
        datasource.put("label", "Prometheus");
        datasource.put("type", "datasource");
        datasource.put("query", "prometheus");
        ArrayNode panels = root.putArray("panels");
        int id = 1;
        for (Panel panel : dashboard.panels()) {
            ObjectNode node = panels.addObject();
            node.put("id", id);
            node.put("type", "timeseries");
            node.put("title", panel.title());
            node.putObject("datasource").put("type", "prometheus").put("uid", DATASOURCE);
            // Two panels a row, each half the width of Grafana's 24-column grid.
            node.putObject("gridPos")
                    .put("h", 8)
                    .put("w", 12)
                    .put("x", ((id - 1) % 2) * 12)
                    .put("y", ((id - 1) / 2) * 8);
            node.putObject("fieldConfig").putObject("defaults").put("unit", panel.unit());
            ArrayNode targets = node.putArray("targets");
            char refId = 'A';
            for (Query query : panel.queries()) {
                ObjectNode target = targets.addObject();
                target.put("refId", String.valueOf(refId++));
                target.putObject("datasource").put("type", "prometheus").put("uid", DATASOURCE);
                target.put("expr", query.expr());
                target.put("legendFormat", query.legend());
            }
            id++;
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
