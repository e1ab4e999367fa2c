package dev.platform.karpenter.preview;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.catalog.InstanceCatalogue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The preview as Markdown for a pull request's per-cluster report: a table of the pools, the warnings, and, given
 * the base branch's preview (its --json), the types each pool gains or loses and its ceiling cost before and after.
 */
public final class PreviewMarkdown {
    /** Type names listed per change before "and N more". */
    static final int NAMES_SHOWN = 15;
    /** What bin/plan-stacks may add to a plan report (terraform.PlanReport leaves this room below GitHub's limit). */
    static final int MAX_LENGTH = 10_000;

    private PreviewMarkdown() {}

    public static String of(List<ClusterPreview> clusters, InstanceCatalogue catalogue, Optional<JsonNode> base) {
        PoolFigures.Cache cache = new PoolFigures.Cache();
        StringBuilder out = new StringBuilder();
        for (ClusterPreview cluster : clusters) {
            out.append("\n### Node pools of ")
                    .append(cluster.config().clusterName())
                    .append(": what they can launch (bin/preview)\n\n");
            out.append("| pool | types | families | vCPU | memory GiB | pods | cheapest on-demand | max nodes |"
                    + " ceiling / month |\n");
            out.append("|---|---:|---:|---|---|---|---|---:|---:|\n");
            for (PoolPreview pool : cluster.pools()) {
                PoolFigures figures = cache.of(pool);
                out.append("| ")
                        .append(pool.pool().name())
                        .append(" | ")
                        .append(pool.selection().types().size())
                        .append(" | ")
                        .append(figures.families().size())
                        .append(" | ")
                        .append(figures.vcpu().map(Object::toString).orElse("-"))
                        .append(" | ")
                        .append(figures.memoryGib().map(Object::toString).orElse("-"))
                        .append(" | ")
                        .append(figures.pods().map(Object::toString).orElse("-"))
                        .append(" | ")
                        .append(figures.cheapest().stream()
                                .findFirst()
                                .map(c -> "`" + c.type().name() + "` $"
                                        + c.usdPerHour().orElseThrow().toPlainString() + "/h")
                                .orElse("-"))
                        .append(" | ")
                        .append(figures.spending()
                                .maxNodes()
                                .map(String::valueOf)
                                .orElse("unbounded"))
                        .append(" | ")
                        .append(money(figures.spending().ceilingUsdPerMonth()))
                        .append(" |\n");
            }
            out.append("\n| pool | nodes | Drifted (UTC, seven days from ")
                    .append(
                            cluster.pools().isEmpty()
                                    ? "-"
                                    : PreviewReport.minute(cluster.pools()
                                            .get(0)
                                            .disruption()
                                            .timeline()
                                            .from()))
                    .append(") | drift rollout |\n|---|---:|---|---|\n");
            for (PoolPreview pool : cluster.pools()) {
                PoolDisruption disruption = pool.disruption();
                out.append("| ")
                        .append(pool.pool().name())
                        .append(" | ")
                        .append(
                                disruption.timeline().nodes().isPresent()
                                        ? String.valueOf(
                                                disruption.timeline().nodes().getAsLong())
                                        : "unbounded")
                        .append(" | ")
                        .append(disruption.whenDrifted())
                        .append(" | ")
                        .append(
                                disruption.timeline().nodes().isPresent()
                                        ? disruption
                                                        .rollout()
                                                        .map(PreviewReport::duration)
                                                        .orElse("over seven days") + " at "
                                                + disruption.replace().toMinutes() + " min/node"
                                        : "-")
                        .append(" |\n");
            }
            List<String> notes = new ArrayList<>(
                    cluster.refusals().stream().map(r -> "**refused**: " + r).toList());
            cluster.warnings().forEach(warning -> notes.add("warning: " + warning));
            if (!notes.isEmpty()) {
                out.append('\n');
                notes.forEach(note -> out.append("- ").append(note).append('\n'));
            }
            base.ifPresent(json -> {
                JsonNode baseCluster = json.path(cluster.config().clusterName());
                diff(out, cluster, baseCluster.path("pools"), cache);
                replaced(out, cluster, baseCluster, cache, catalogue);
            });
        }
        String sources = "\n<sub>" + PreviewReport.pricesSource(catalogue) + "</sub>\n";
        String cut = "\n\n(shortened: bin/preview prints it whole)\n";
        return out.length() + sources.length() <= MAX_LENGTH
                ? out + sources
                : out.substring(0, MAX_LENGTH - sources.length() - cut.length()) + cut + sources;
    }

    /** One line per pool: what drifts, how many nodes at most, and when the budgets let it happen. */
    private static void replaced(
            StringBuilder out,
            ClusterPreview cluster,
            JsonNode baseCluster,
            PoolFigures.Cache cache,
            InstanceCatalogue catalogue) {
        out.append("\n#### What this change replaces (drift)\n\n");
        PreviewReport.releaseChange(baseCluster, cluster)
                .ifPresent(change -> out.append("- ").append(change).append('\n'));
        for (PoolPreview pool : cluster.pools()) {
            JsonNode basePool = baseCluster.path("pools").path(pool.pool().name());
            if (basePool.isMissingNode()) {
                out.append("- `").append(pool.pool().name()).append("`: new pool, replaces no node\n");
                continue;
            }
            out.append("- ")
                    .append(PoolDrift.of(pool, basePool, cluster.config().release(), catalogue)
                            .line(
                                    pool.pool().name(),
                                    pool.disruption().nodeCount(),
                                    pool.disruption().whenDrifted()))
                    .append('\n');
        }
    }

    private static void diff(StringBuilder out, ClusterPreview cluster, JsonNode basePools, PoolFigures.Cache cache) {
        out.append("\n#### Against the base branch\n\n");
        out.append("| pool | types before → after | added | removed | ceiling / month before → after |\n");
        out.append("|---|---|---|---|---|\n");
        Set<String> seen = new LinkedHashSet<>();
        for (PoolPreview pool : cluster.pools()) {
            String name = pool.pool().name();
            seen.add(name);
            JsonNode before = basePools.path(name);
            List<String> after = pool.selection().names();
            Optional<BigDecimal> ceiling = cache.of(pool).spending().ceilingUsdPerMonth();
            if (before.isMissingNode()) {
                out.append("| ")
                        .append(name)
                        .append(" | new: ")
                        .append(after.size())
                        .append(" | all | - | new: ")
                        .append(money(ceiling))
                        .append(" |\n");
                continue;
            }
            Set<String> previous = new LinkedHashSet<>();
            before.path("instance_types").forEach(type -> previous.add(type.asText()));
            List<String> added =
                    after.stream().filter(type -> !previous.contains(type)).toList();
            Set<String> now = new LinkedHashSet<>(after);
            List<String> removed =
                    previous.stream().filter(type -> !now.contains(type)).toList();
            out.append("| ")
                    .append(name)
                    .append(" | ")
                    .append(previous.size())
                    .append(" → ")
                    .append(after.size())
                    .append(" | ")
                    .append(names(added))
                    .append(" | ")
                    .append(names(removed))
                    .append(" | ")
                    .append(money(ceilingOf(before)))
                    .append(" → ")
                    .append(money(ceiling))
                    .append(" |\n");
        }
        basePools.fieldNames().forEachRemaining(name -> {
            if (!seen.contains(name)) {
                JsonNode before = basePools.path(name);
                out.append("| ")
                        .append(name)
                        .append(" | ")
                        .append(before.path("instance_types").size())
                        .append(" → removed | - | all | ")
                        .append(money(ceilingOf(before)))
                        .append(" → - |\n");
            }
        });
    }

    private static Optional<BigDecimal> ceilingOf(JsonNode pool) {
        JsonNode ceiling = pool.path("ceiling_usd_per_month");
        return ceiling.isNumber() ? Optional.of(ceiling.decimalValue()) : Optional.empty();
    }

    private static String names(List<String> types) {
        if (types.isEmpty()) {
            return "none";
        }
        String shown = String.join(", ", types.subList(0, Math.min(NAMES_SHOWN, types.size())));
        return types.size() + ": " + shown
                + (types.size() > NAMES_SHOWN ? " and " + (types.size() - NAMES_SHOWN) + " more" : "");
    }

    private static String money(Optional<BigDecimal> usd) {
        return usd.map(value -> String.format(
                        "$%,d", value.setScale(0, RoundingMode.HALF_UP).longValueExact()))
                .orElse("unbounded");
    }
}
