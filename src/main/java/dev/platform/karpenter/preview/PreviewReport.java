package dev.platform.karpenter.preview;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.Selection.Candidate;
import dev.platform.karpenter.catalog.Spending;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The preview as text (per cluster and pool) and as JSON ({@code {"<cluster>": {"pools": {"<pool>": ...}}}}). */
public final class PreviewReport {
    static final int CHEAPEST = 5;
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
        Map<String, Object> document = new LinkedHashMap<>();
        for (ClusterPreview cluster : clusters) {
            Map<String, Object> pools = new LinkedHashMap<>();
            for (PoolPreview pool : cluster.pools()) {
                pools.put(pool.pool().name(), pool(pool));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
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

    private static Map<String, Object> pool(PoolPreview preview) {
        Map<String, Object> pool = new LinkedHashMap<>();
        List<Candidate> types = preview.selection().types();
        pool.put("instance_types", preview.selection().names());
        List<Candidate> cheapest = preview.selection().cheapest(CHEAPEST);
        pool.put("cheapest", cheapest.isEmpty() ? null : price(cheapest.get(0)));
        pool.put("count", types.size());
        pool.put("families", families(types));
        pool.put("vcpu", range(types, c -> BigDecimal.valueOf(c.type().vcpus())));
        pool.put(
                "memory_gib",
                range(types, c -> BigDecimal.valueOf(c.type().memoryMiB()).divide(BigDecimal.valueOf(1024))));
        pool.put("pods", range(types, c -> c.resources().allocatable().get("pods")));
        pool.put(
                "cheapest_on_demand",
                cheapest.stream().map(PreviewReport::price).toList());
        pool.put("limits", preview.pool().limits());
        Spending spending = Spending.of(preview.selection(), preview.pool().limits());
        pool.put("max_nodes", spending.maxNodes().orElse(null));
        pool.put("ceiling_usd_per_month", spending.ceilingUsdPerMonth().orElse(null));
        pool.put("narrowing_nothing", preview.ignoredRequirements());
        pool.put("warnings", preview.warnings());
        pool.put("refusals", preview.refusals());
        return pool;
    }

    private static Map<String, Object> price(Candidate candidate) {
        Map<String, Object> price = new LinkedHashMap<>();
        price.put("type", candidate.type().name());
        price.put("usd_per_hour", candidate.usdPerHour().orElseThrow());
        return price;
    }

    private static List<String> families(List<Candidate> types) {
        return List.copyOf(types.stream().map(c -> c.type().family()).collect(Collectors.toCollection(TreeSet::new)));
    }

    private static Map<String, BigDecimal> range(List<Candidate> types, Function<Candidate, BigDecimal> value) {
        if (types.isEmpty()) {
            return null;
        }
        List<BigDecimal> values = types.stream().map(value).sorted().toList();
        Map<String, BigDecimal> range = new LinkedHashMap<>();
        range.put("min", values.get(0).stripTrailingZeros());
        range.put("max", values.get(values.size() - 1).stripTrailingZeros());
        return range;
    }

    /** The text report. */
    public static String text(List<ClusterPreview> clusters, InstanceCatalogue catalogue) {
        StringBuilder out = new StringBuilder();
        for (ClusterPreview cluster : clusters) {
            out.append("cluster ")
                    .append(cluster.config().clusterName())
                    .append(" (Karpenter ")
                    .append(cluster.config().release())
                    .append(")\n");
            for (PoolPreview preview : cluster.pools()) {
                List<Candidate> types = preview.selection().types();
                List<String> families = families(types);
                out.append("  pool ")
                        .append(preview.pool().name())
                        .append(": ")
                        .append(types.size())
                        .append(" instance types");
                if (!types.isEmpty()) {
                    out.append(", ")
                            .append(families.size())
                            .append(" families (")
                            .append(abbreviate(families, 12))
                            .append(")\n");
                    out.append("    vCPU ")
                            .append(span(range(
                                    types, c -> BigDecimal.valueOf(c.type().vcpus()))))
                            .append(", memory ")
                            .append(span(range(
                                    types,
                                    c -> BigDecimal.valueOf(c.type().memoryMiB())
                                            .divide(BigDecimal.valueOf(1024), 3, RoundingMode.HALF_UP))))
                            .append(" GiB, pods ")
                            .append(span(range(
                                    types, c -> c.resources().allocatable().get("pods"))))
                            .append('\n');
                    List<String> cheapest = new ArrayList<>();
                    for (Candidate candidate : preview.selection().cheapest(CHEAPEST)) {
                        cheapest.add(candidate.type().name() + " $"
                                + candidate.usdPerHour().get().toPlainString() + "/h");
                    }
                    out.append("    cheapest on-demand: ")
                            .append(cheapest.isEmpty() ? "none priced" : String.join(", ", cheapest))
                            .append('\n');
                } else {
                    out.append('\n');
                }
                out.append("    limits: ").append(limits(preview)).append('\n');
                if (!preview.ignoredRequirements().isEmpty()) {
                    out.append("    narrow nothing here (not labels of instance types): ")
                            .append(String.join("; ", preview.ignoredRequirements()))
                            .append('\n');
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

    private static String limits(PoolPreview preview) {
        if (preview.pool().limits().isEmpty()) {
            return "none: no bound on nodes or cost";
        }
        String written = preview.pool().limits().entrySet().stream()
                .map(limit -> limit.getKey() + " " + quantity(limit.getKey(), limit.getValue()))
                .collect(Collectors.joining(", "));
        Spending spending = Spending.of(preview.selection(), preview.pool().limits());
        Optional<Long> nodes = spending.maxNodes();
        Optional<BigDecimal> ceiling = spending.ceilingUsdPerMonth();
        return written + " -> at most " + nodes.map(String::valueOf).orElse("unbounded") + " nodes, ceiling "
                + ceiling.map(c -> "$" + c.setScale(0, RoundingMode.HALF_UP).toPlainString() + "/month")
                        .orElse("unbounded")
                + " at on-demand list prices";
    }

    private static String quantity(String resource, BigDecimal value) {
        return resource.equals("memory")
                ? value.divide(GIB, 2, RoundingMode.HALF_UP)
                                .stripTrailingZeros()
                                .toPlainString() + "Gi"
                : value.stripTrailingZeros().toPlainString();
    }

    private static String span(Map<String, BigDecimal> range) {
        String min = range.get("min").stripTrailingZeros().toPlainString();
        String max = range.get("max").stripTrailingZeros().toPlainString();
        return min.equals(max) ? min : min + "-" + max;
    }

    private static String abbreviate(List<String> items, int shown) {
        return items.size() <= shown
                ? String.join(", ", items)
                : String.join(", ", items.subList(0, shown)) + ", ... " + (items.size() - shown) + " more";
    }
}
