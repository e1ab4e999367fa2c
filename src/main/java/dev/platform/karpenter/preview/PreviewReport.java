package dev.platform.karpenter.preview;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.Selection.Candidate;
import dev.platform.karpenter.catalog.Spending;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The preview as text (per cluster and pool) and as JSON ({@code {"<cluster>": {"pools": {"<pool>": ...}}}}). */
public final class PreviewReport {
    private static final BigDecimal GIB = BigDecimal.valueOf(1L << 30);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PreviewReport() {}

    /** Where the prices come from, and their date. */
    public static String pricesSource(InstanceCatalogue catalogue) {
        return "on-demand list prices for " + catalogue.pricesRegion() + " generated " + catalogue.pricesGenerated()
                + ", from aws/karpenter-provider-aws " + catalogue.tag() + " (pricing/zz_generated.pricing_aws.go);"
                + " instance types from its reference/instance-types.md, every region's, not only the cluster's";
    }

    /** The JSON document for {@code clusters}. */
    public static String json(List<ClusterPreview> clusters, InstanceCatalogue catalogue) {
        return json(clusters, catalogue, Optional.empty());
    }

    /**
     * The JSON document for {@code clusters}; given the base branch's (what --json printed for it), each pool's drift
     * against it and the release change.
     */
    public static String json(List<ClusterPreview> clusters, InstanceCatalogue catalogue, Optional<JsonNode> base) {
        PoolFigures.Cache figures = new PoolFigures.Cache();
        Map<String, Object> document = new LinkedHashMap<>();
        for (ClusterPreview cluster : clusters) {
            Map<String, Object> pools = new LinkedHashMap<>();
            JsonNode baseCluster =
                    base.map(json -> json.path(cluster.config().clusterName())).orElse(null);
            for (PoolPreview pool : cluster.pools()) {
                Map<String, Object> entry = pool(pool, figures.of(pool));
                entry.put("rendered", PoolDrift.rendered(pool, cluster.config().release()));
                if (baseCluster != null) {
                    JsonNode basePool =
                            baseCluster.path("pools").path(pool.pool().name());
                    if (basePool.isMissingNode()) {
                        entry.put("drift", Map.of("new_pool", true, "causes", List.of(), "every_node", false));
                    } else {
                        entry.put(
                                "drift",
                                PoolDrift.of(pool, basePool, cluster.config().release(), catalogue)
                                        .json(
                                                pool.disruption().nodeCount(),
                                                pool.disruption().whenDrifted()));
                    }
                }
                pools.put(pool.pool().name(), entry);
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("release", cluster.config().release().chartVersion());
            if (baseCluster != null) {
                entry.put("release_change", releaseChange(baseCluster, cluster).orElse(null));
            }
            entry.put("pools", pools);
            entry.put("warnings", cluster.warnings());
            entry.put("refusals", cluster.refusals());
            entry.put(
                    "prices",
                    Map.of(
                            "region", catalogue.pricesRegion(),
                            "generated", catalogue.pricesGenerated(),
                            "source", "aws/karpenter-provider-aws " + catalogue.tag() + " " + catalogue.commit()));
            document.put(cluster.config().clusterName(), entry);
        }
        try {
            return JSON.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> pool(PoolPreview preview, PoolFigures figures) {
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("instance_types", preview.selection().names());
        pool.put(
                "cheapest",
                figures.cheapest().isEmpty() ? null : price(figures.cheapest().get(0)));
        pool.put("count", preview.selection().types().size());
        pool.put("families", figures.families());
        pool.put("vcpu", figures.vcpu().map(PoolFigures.Range::asMap).orElse(null));
        pool.put("memory_gib", figures.memoryGib().map(PoolFigures.Range::asMap).orElse(null));
        pool.put("pods", figures.pods().map(PoolFigures.Range::asMap).orElse(null));
        pool.put(
                "cheapest_on_demand",
                figures.cheapest().stream().map(PreviewReport::price).toList());
        pool.put("limits", preview.pool().limits());
        pool.put("max_nodes", figures.spending().maxNodes().orElse(null));
        pool.put(
                "ceiling_usd_per_month", figures.spending().ceilingUsdPerMonth().orElse(null));
        pool.put("narrowing_nothing", preview.ignoredRequirements());
        pool.put("disruption", disruption(preview.disruption()));
        pool.put("warnings", preview.warnings());
        pool.put("refusals", preview.refusals());
        return pool;
    }

    /** The release change against the base branch's cluster entry, if its release differs. */
    static Optional<String> releaseChange(JsonNode baseCluster, ClusterPreview cluster) {
        String release = baseCluster.path("release").asText("");
        if (release.isEmpty()) {
            return Optional.empty();
        }
        return ReleaseDrift.describe(
                dev.platform.karpenter.release.KarpenterRelease.of(release),
                cluster.config().release());
    }

    /** The timeline with what it was computed from: nodes, from, to, windows (allowed per reason, null: no limit). */
    static Map<String, Object> disruption(PoolDisruption disruption) {
        DisruptionTimeline timeline = disruption.timeline();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("nodes", timeline.nodes().isPresent() ? timeline.nodes().getAsLong() : null);
        json.put("node_count", disruption.nodeCountSource());
        json.put("from", timeline.from().toString());
        json.put("to", timeline.to().toString());
        json.put("budgets", timeline.budgets().present());
        json.put(
                "windows",
                timeline.windows().stream().map(PreviewReport::window).toList());
        disruption.instead().ifPresent(instead -> json.put("instead", instead));
        json.put(
                "expiry",
                !timeline.budgets().present()
                        ? "not budgeted (no budgets)"
                        : timeline.budgets().reasons()
                                ? "forceful: no budget applies, expireAfter replaces a node when it comes"
                                : "budgeted like every disruption (budgets have no reasons before v1)");
        json.put("replace_minutes", disruption.replace().toMinutes());
        json.put(
                "drift_rollout_minutes",
                disruption.rollout().map(java.time.Duration::toMinutes).orElse(null));
        return json;
    }

    private static Map<String, Object> window(DisruptionTimeline.Window window) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("from", window.from().toString());
        json.put("to", window.to().toString());
        Map<String, Object> allowed = new LinkedHashMap<>();
        DisruptionBudgets.REASONS.forEach(
                reason -> allowed.put(reason, window.allowed().get(reason).json()));
        json.put("allowed", allowed);
        return json;
    }

    /** Windows shown as text before "N more" (--json lists them all). */
    static final int WINDOWS_SHOWN = 14;

    /** The timeline as text lines, each indented by {@code indent}. */
    static String disruptionText(PoolDisruption disruption, String indent) {
        DisruptionTimeline timeline = disruption.timeline();
        StringBuilder out = new StringBuilder();
        out.append(indent)
                .append("disruption, UTC, ")
                .append(minute(timeline.from()))
                .append(" to ");
        out.append(minute(timeline.to())).append(", ");
        out.append(timeline.nodes().isPresent() ? timeline.nodes().getAsLong() + " nodes" : "node count unknown");
        out.append(" (").append(nodeCountSource(disruption)).append(")");
        if (disruption.instead().isPresent()) {
            out.append(": ").append(disruption.instead().get()).append('\n');
        } else {
            out.append(", at once per reason (Drifted/Underutilized/Empty, - no limit):\n");
            List<DisruptionTimeline.Window> windows = timeline.windows();
            for (int i = 0; i < Math.min(WINDOWS_SHOWN, windows.size()); i++) {
                DisruptionTimeline.Window window = windows.get(i);
                out.append(indent).append("  ").append(minute(window.from())).append(" .. ");
                out.append(minute(window.to())).append("  ");
                out.append(String.join(
                        "/",
                        DisruptionBudgets.REASONS.stream()
                                .map(reason -> window.allowed().get(reason))
                                .map(allowance -> allowance.unlimited() ? "-" : allowance.toString())
                                .toList()));
                out.append('\n');
            }
            if (windows.size() > WINDOWS_SHOWN) {
                out.append(indent).append("  ... ").append(windows.size() - WINDOWS_SHOWN);
                out.append(" more windows (--json lists them all)\n");
            }
        }
        if (timeline.nodes().isPresent()) {
            out.append(indent)
                    .append("drift rollout of ")
                    .append(timeline.nodes().getAsLong());
            out.append(" nodes, ").append(disruption.replace().toMinutes()).append(" minutes each: ");
            out.append(disruption.rollout().map(PreviewReport::duration).orElse("more than seven days"));
            out.append('\n');
        }
        return out.toString();
    }

    static String nodeCountSource(PoolDisruption disruption) {
        return switch (disruption.nodeCountSource()) {
            case "--nodes" -> "--nodes";
            case "max nodes" -> "the most its limits allow; --nodes to change";
            default -> "its limits do not bound nodes: percentages shown as written; --nodes to count";
        };
    }

    static String minute(java.time.Instant instant) {
        String text = instant.toString();
        return text.endsWith(":00Z") ? text.substring(0, text.length() - 4) + "Z" : text;
    }

    static String duration(java.time.Duration duration) {
        long days = duration.toDays();
        long hours = duration.toHoursPart();
        long minutes = duration.toMinutesPart();
        StringBuilder out = new StringBuilder();
        if (days > 0) {
            out.append(days).append('d');
        }
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (minutes > 0 || out.length() == 0) {
            out.append(minutes).append('m');
        }
        return out.toString();
    }

    private static Map<String, Object> price(Candidate candidate) {
        Map<String, Object> price = new LinkedHashMap<>();
        price.put("type", candidate.type().name());
        price.put("usd_per_hour", candidate.usdPerHour().orElseThrow());
        if (!candidate.overlays().isEmpty()) {
            price.put("node_overlays", candidate.overlays());
        }
        return price;
    }

    /** The text report. */
    public static String text(List<ClusterPreview> clusters, InstanceCatalogue catalogue) {
        PoolFigures.Cache cache = new PoolFigures.Cache();
        StringBuilder out = new StringBuilder();
        for (ClusterPreview cluster : clusters) {
            out.append("cluster ").append(cluster.config().clusterName());
            out.append(" (Karpenter ").append(cluster.config().release()).append(")\n");
            for (PoolPreview preview : cluster.pools()) {
                PoolFigures figures = cache.of(preview);
                int count = preview.selection().types().size();
                out.append("  pool ").append(preview.pool().name()).append(": ").append(count);
                out.append(" instance types");
                if (count > 0) {
                    int families = figures.families().size();
                    out.append(", ").append(families).append(families == 1 ? " family (" : " families (");
                    out.append(abbreviate(figures.families(), 12)).append(")\n");
                    out.append("    vCPU ").append(figures.vcpu().orElseThrow());
                    out.append(", memory ").append(figures.memoryGib().orElseThrow());
                    out.append(" GiB, pods ")
                            .append(figures.pods().orElseThrow())
                            .append('\n');
                    List<String> cheapest = figures.cheapest().stream()
                            .map(c -> c.type().name() + " $"
                                    + c.usdPerHour().orElseThrow().toPlainString() + "/h")
                            .toList();
                    out.append("    cheapest on-demand: ");
                    out.append(cheapest.isEmpty() ? "none priced" : String.join(", ", cheapest))
                            .append('\n');
                } else {
                    out.append('\n');
                }
                out.append("    limits: ")
                        .append(limits(preview, figures.spending()))
                        .append('\n');
                out.append(disruptionText(preview.disruption(), "    "));
                if (!preview.ignoredRequirements().isEmpty()) {
                    out.append("    narrow nothing here (not labels of instance types): ");
                    out.append(String.join("; ", preview.ignoredRequirements())).append('\n');
                }
                preview.refusals()
                        .forEach(
                                line -> out.append("    refused: ").append(line).append('\n'));
            }
            cluster.warnings()
                    .forEach(line -> out.append("  warning: ").append(line).append('\n'));
        }
        out.append("prices: ").append(pricesSource(catalogue)).append('\n');
        return out.toString();
    }

    private static String limits(PoolPreview preview, Spending spending) {
        if (preview.pool().limits().isEmpty()) {
            return "none: no bound on nodes or cost";
        }
        String written = preview.pool().limits().entrySet().stream()
                .map(limit -> limit.getKey() + " " + quantity(limit.getKey(), limit.getValue()))
                .collect(Collectors.joining(", "));
        return written + " -> at most "
                + spending.maxNodes().map(String::valueOf).orElse("unbounded")
                + " nodes, ceiling "
                + spending.ceilingUsdPerMonth()
                        .map(c -> "$" + c.setScale(0, RoundingMode.HALF_UP).toPlainString() + "/month")
                        .orElse("unbounded")
                + " at on-demand list prices";
    }

    private static String quantity(String resource, BigDecimal value) {
        BigDecimal shown = resource.equals("memory") ? value.divide(GIB, 2, RoundingMode.HALF_UP) : value;
        return shown.stripTrailingZeros().toPlainString() + (resource.equals("memory") ? "Gi" : "");
    }

    private static String abbreviate(List<String> items, int shown) {
        return items.size() <= shown
                ? String.join(", ", items)
                : String.join(", ", items.subList(0, shown)) + ", ... " + (items.size() - shown) + " more";
    }
}
