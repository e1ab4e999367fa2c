package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.Selection;
import dev.platform.karpenter.catalog.Selection.Candidate;
import dev.platform.karpenter.catalog.Spending;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The figures the preview prints of one pool: its types' families and ranges, the cheapest on-demand types, and what
 * its limits allow.
 *
 * @param vcpu     min and max; empty without types (as are memoryGib and pods)
 * @param memoryGib memory as EC2 reports it, in GiB
 * @param pods     pods a node offers under the pool's node class
 */
record PoolFigures(
        List<String> families,
        Optional<Range> vcpu,
        Optional<Range> memoryGib,
        Optional<Range> pods,
        List<Candidate> cheapest,
        Spending spending) {
    static final int CHEAPEST = 5;
    private static final BigDecimal MIB_PER_GIB = BigDecimal.valueOf(1024);

    record Range(BigDecimal min, BigDecimal max) {
        Map<String, BigDecimal> asMap() {
            Map<String, BigDecimal> range = new LinkedHashMap<>();
            range.put("min", min);
            range.put("max", max);
            return range;
        }

        @Override
        public String toString() {
            String low = min.toPlainString();
            String high = max.toPlainString();
            return low.equals(high) ? low : low + "-" + high;
        }
    }

    static PoolFigures of(Selection selection, Map<String, BigDecimal> limits) {
        List<Candidate> types = selection.types();
        return new PoolFigures(
                List.copyOf(types.stream().map(c -> c.type().family()).collect(Collectors.toCollection(TreeSet::new))),
                range(types, c -> BigDecimal.valueOf(c.type().vcpus())),
                range(
                        types,
                        c -> BigDecimal.valueOf(c.type().memoryMiB()).divide(MIB_PER_GIB, 3, RoundingMode.HALF_UP)),
                range(types, c -> c.resources().allocatable().get("pods")),
                selection.cheapest(CHEAPEST),
                Spending.of(selection, limits));
    }

    private static Optional<Range> range(List<Candidate> types, Function<Candidate, BigDecimal> value) {
        return types.stream()
                .map(value)
                .min(BigDecimal::compareTo)
                .map(min -> new Range(
                        min.stripTrailingZeros(),
                        types.stream()
                                .map(value)
                                .max(BigDecimal::compareTo)
                                .orElseThrow()
                                .stripTrailingZeros()));
    }

    /** Figures for each distinct pool once: identical pools of several clusters share their selection. */
    static final class Cache {
        private final Map<Selection, Map<Map<String, BigDecimal>, PoolFigures>> figures = new IdentityHashMap<>();

        PoolFigures of(PoolPreview preview) {
            return figures.computeIfAbsent(preview.selection(), selection -> new HashMap<>())
                    .computeIfAbsent(preview.pool().limits(), limits -> PoolFigures.of(preview.selection(), limits));
        }
    }
}
