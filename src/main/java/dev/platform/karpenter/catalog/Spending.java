package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a pool's limits allow of its matching types: Karpenter launches a node only while the pool's nodes, counted
 * by capacity, stay within every limit.
 *
 * @param maxNodes    the most nodes the limits allow (of the type that fits most often); empty without limits
 * @param ceilingUsdPerMonth the most the pool can spend per month at on-demand list prices: the priciest fleet found
 *                    within the limits (as many of one type as fit, the room left filled with the priciest type
 *                    that still fits, repeatedly); empty without limits or prices
 * @param fittingTypes how many matching types fit the limits at least once
 */
public record Spending(Optional<Long> maxNodes, Optional<BigDecimal> ceilingUsdPerMonth, int fittingTypes) {
    /** AWS's monthly convention: 730 hours. */
    public static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);

    /** The spending of {@code selection} within {@code limits} (resource name to quantity in base units). */
    public static Spending of(Selection selection, Map<String, BigDecimal> limits) {
        List<Selection.Candidate> candidates = selection.types();
        int fitting = (int) candidates.stream().filter(c -> fits(c, limits, 1)).count();
        if (limits.isEmpty()) {
            return new Spending(Optional.empty(), Optional.empty(), fitting);
        }
        long maxNodes = 0;
        Map<Selection.Candidate, Long> counts = new IdentityHashMap<>();
        for (Selection.Candidate candidate : candidates) {
            long count = count(candidate, limits);
            if (count == Long.MAX_VALUE) {
                // A type the limits do not measure (a GPU limit, a type without GPUs): nothing bounds the pool.
                return new Spending(Optional.empty(), Optional.empty(), fitting);
            }
            maxNodes = Math.max(maxNodes, count);
            counts.put(candidate, count);
        }
        // The priciest single-type fleets start the search; filling the room left adds less than they differ.
        List<Selection.Candidate> starts = candidates.stream()
                .filter(c -> c.usdPerHour().isPresent() && counts.get(c) > 0)
                .sorted((a, b) -> homogeneous(b, counts).compareTo(homogeneous(a, counts)))
                .limit(FLEET_STARTS)
                .toList();
        BigDecimal ceiling = null;
        for (Selection.Candidate candidate : starts) {
            BigDecimal fleet = fleet(candidate, counts.get(candidate), candidates, limits);
            ceiling = ceiling == null ? fleet : ceiling.max(fleet);
        }
        return new Spending(
                Optional.of(maxNodes),
                Optional.ofNullable(ceiling)
                        .map(perHour -> perHour.multiply(HOURS_PER_MONTH).setScale(2, RoundingMode.HALF_UP)),
                fitting);
    }

    private static final int FLEET_STARTS = 8;

    private static BigDecimal homogeneous(Selection.Candidate candidate, Map<Selection.Candidate, Long> counts) {
        return candidate.usdPerHour().get().multiply(BigDecimal.valueOf(counts.get(candidate)));
    }

    /** Per hour: {@code count} of {@code first}, then the room left filled greedily by price. */
    private static BigDecimal fleet(
            Selection.Candidate first,
            long count,
            List<Selection.Candidate> candidates,
            Map<String, BigDecimal> limits) {
        Map<String, BigDecimal> room = new HashMap<>(limits);
        take(room, first, count);
        BigDecimal perHour = first.usdPerHour().get().multiply(BigDecimal.valueOf(count));
        List<Selection.Candidate> byPrice = new ArrayList<>(
                candidates.stream().filter(c -> c.usdPerHour().isPresent()).toList());
        byPrice.sort((a, b) -> b.usdPerHour().get().compareTo(a.usdPerHour().get()));
        for (Selection.Candidate candidate : byPrice) {
            long more = count(candidate, room);
            if (more > 0) {
                take(room, candidate, more);
                perHour = perHour.add(candidate.usdPerHour().get().multiply(BigDecimal.valueOf(more)));
            }
        }
        return perHour;
    }

    private static void take(Map<String, BigDecimal> room, Selection.Candidate candidate, long count) {
        room.replaceAll((resource, left) -> left.subtract(candidate
                .resources()
                .capacity()
                .getOrDefault(resource, BigDecimal.ZERO)
                .multiply(BigDecimal.valueOf(count))));
    }

    /** How many nodes of the candidate fit within {@code limits}. */
    static long count(Selection.Candidate candidate, Map<String, BigDecimal> limits) {
        long count = Long.MAX_VALUE;
        for (Map.Entry<String, BigDecimal> limit : limits.entrySet()) {
            BigDecimal each = candidate.resources().capacity().getOrDefault(limit.getKey(), BigDecimal.ZERO);
            if (each.signum() > 0) {
                count = Math.min(
                        count,
                        limit.getValue()
                                .divide(each, 0, RoundingMode.FLOOR)
                                .max(BigDecimal.ZERO)
                                .longValue());
            }
        }
        return count;
    }

    static boolean fits(Selection.Candidate candidate, Map<String, BigDecimal> limits, long nodes) {
        return count(candidate, limits) >= nodes;
    }

    /** Whether one node of some matching type fits within {@code limits}; stops at the first that does. */
    public static boolean anyFits(Selection selection, Map<String, BigDecimal> limits) {
        return selection.types().stream().anyMatch(candidate -> fits(candidate, limits, 1));
    }
}
