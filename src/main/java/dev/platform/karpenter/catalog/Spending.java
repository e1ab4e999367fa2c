package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a pool's limits allow of its matching types: Karpenter launches a node only while the pool's nodes, counted
 * by capacity, stay within every limit.
 *
 * @param maxNodes    the most nodes the limits allow (of the type that fits most often); empty without limits, or
 *                    where a matching type has none of the limited resources (nothing bounds its nodes)
 * @param ceilingUsdPerMonth the most the pool can spend per month at on-demand list prices: the priciest fleet found
 *                    within the limits (as many of one type as fit, the room left filled with the priciest type
 *                    that still fits, repeatedly), over 730 hours; zero where no node fits; empty where maxNodes is,
 *                    or without prices
 * @param fittingTypes how many matching types fit the limits at least once
 */
public record Spending(Optional<Long> maxNodes, Optional<BigDecimal> ceilingUsdPerMonth, int fittingTypes) {
    /** The limit on the number of nodes (spec.limits.nodes), which each node counts against as one. */
    public static final String NODES = "nodes";

    /** AWS's monthly convention: 730 hours. */
    public static final BigDecimal HOURS_PER_MONTH = BigDecimal.valueOf(730);

    /** The priciest single-type fleets start the search; filling the room left adds less than they differ. */
    private static final int FLEET_STARTS = 8;

    /** One candidate's capacity in thousandths of each limited resource (millicores, millibytes), and its price. */
    private record Node(long[] capacity, BigDecimal usdPerHour) {}

    /** The spending of {@code selection} within {@code limits} (resource name to quantity in base units). */
    public static Spending of(Selection selection, Map<String, BigDecimal> limits) {
        List<String> resources = List.copyOf(limits.keySet());
        long[] room = milli(resources, limits);
        List<Node> nodes = new ArrayList<>();
        for (Selection.Candidate candidate : selection.types()) {
            nodes.add(new Node(
                    milli(resources, counted(candidate)), candidate.usdPerHour().orElse(null)));
        }
        int fitting =
                (int) nodes.stream().filter(node -> count(node, room) >= 1).count();
        if (limits.isEmpty()) {
            return new Spending(Optional.empty(), Optional.empty(), fitting);
        }
        long maxNodes = 0;
        for (Node node : nodes) {
            long count = count(node, room);
            if (count == Long.MAX_VALUE) {
                // A type the limits do not measure (a GPU limit, a type without GPUs): nothing bounds the pool.
                return new Spending(Optional.empty(), Optional.empty(), fitting);
            }
            maxNodes = Math.max(maxNodes, count);
        }
        List<Node> priced = nodes.stream()
                .filter(node -> node.usdPerHour() != null)
                .sorted(Comparator.comparing(Node::usdPerHour).reversed())
                .toList();
        BigDecimal ceiling = priced.stream()
                .filter(node -> count(node, room) > 0)
                .sorted(Comparator.comparing((Node node) -> homogeneous(node, room))
                        .reversed())
                .limit(FLEET_STARTS)
                .map(start -> fleet(start, priced, room))
                .max(Comparator.naturalOrder())
                // No node fits: the pool launches nothing and spends nothing.
                .orElse(maxNodes == 0 ? BigDecimal.ZERO : null);
        return new Spending(
                Optional.of(maxNodes),
                Optional.ofNullable(ceiling)
                        .map(perHour -> perHour.multiply(HOURS_PER_MONTH).setScale(2, RoundingMode.HALF_UP)),
                fitting);
    }

    /** Whether one node of some matching type fits within {@code limits}; stops at the first that does. */
    public static boolean anyFits(Selection selection, Map<String, BigDecimal> limits) {
        List<String> resources = List.copyOf(limits.keySet());
        long[] room = milli(resources, limits);
        return selection.types().stream()
                .anyMatch(candidate -> count(new Node(milli(resources, counted(candidate)), null), room) >= 1);
    }

    /** A node's capacity, counting it as one of the "nodes" a pool may limit. */
    private static Map<String, BigDecimal> counted(Selection.Candidate candidate) {
        Map<String, BigDecimal> capacity = new HashMap<>(candidate.resources().capacity());
        capacity.put(NODES, BigDecimal.ONE);
        return capacity;
    }

    private static BigDecimal homogeneous(Node node, long[] room) {
        return node.usdPerHour().multiply(BigDecimal.valueOf(count(node, room)));
    }

    /** Per hour: as many of {@code first} as fit, then the room left filled by the priciest that still fit. */
    private static BigDecimal fleet(Node first, List<Node> byPriceDescending, long[] limits) {
        long[] room = limits.clone();
        long count = count(first, room);
        take(room, first, count);
        BigDecimal perHour = first.usdPerHour().multiply(BigDecimal.valueOf(count));
        for (Node node : byPriceDescending) {
            long more = count(node, room);
            if (more > 0) {
                take(room, node, more);
                perHour = perHour.add(node.usdPerHour().multiply(BigDecimal.valueOf(more)));
            }
        }
        return perHour;
    }

    private static void take(long[] room, Node node, long count) {
        for (int i = 0; i < room.length; i++) {
            room[i] -= node.capacity()[i] * count;
        }
    }

    /** How many nodes fit in {@code room}; Long.MAX_VALUE where the node has none of the limited resources. */
    private static long count(Node node, long[] room) {
        long count = Long.MAX_VALUE;
        for (int i = 0; i < room.length; i++) {
            long each = node.capacity()[i];
            if (each > 0) {
                count = Math.min(count, Math.max(0, room[i] / each));
            }
        }
        return count;
    }

    private static long[] milli(List<String> resources, Map<String, BigDecimal> quantities) {
        long[] milli = new long[resources.size()];
        for (int i = 0; i < milli.length; i++) {
            BigDecimal thousandths = quantities
                    .getOrDefault(resources.get(i), BigDecimal.ZERO)
                    .movePointRight(3)
                    .setScale(0, RoundingMode.CEILING);
            // Beyond any fleet (exabytes): kept below overflow when multiplied by a count.
            milli[i] = thousandths.min(BigDecimal.valueOf(Long.MAX_VALUE / 4)).longValue();
        }
        return milli;
    }
}
