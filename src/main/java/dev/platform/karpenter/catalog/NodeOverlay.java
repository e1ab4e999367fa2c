package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A NodeOverlay as the evaluation uses it (upstream docs, concepts/nodeoverlays): the instance types its
 * requirements select get its price (absolute) or priceAdjustment ("+10%", "-0.50") and its capacity (extended
 * resources, added). Where several select a type, the highest weight wins each field, of equal weights the name
 * later in the alphabet; capacities of different overlays add up, resource by resource. One that sets what another of
 * the same weight sets conflicts and applies nowhere ({@link OverlayConflicts}).
 *
 * @param capacity resource name to quantity, as written
 */
public record NodeOverlay(
        String name,
        int weight,
        List<LabelRequirement> requirements,
        Optional<String> price,
        Optional<String> priceAdjustment,
        Map<String, String> capacity) {

    /**
     * Karpenter's order of precedence (NodeOverlayList.OrderByWeight): higher weight first, and of equal weights the
     * name later in the alphabet first.
     */
    static final Comparator<NodeOverlay> PRECEDENCE = Comparator.comparingInt(NodeOverlay::weight)
            .reversed()
            .thenComparing(NodeOverlay::name, Comparator.reverseOrder());

    private static final String CAPACITY_TYPE = "karpenter.sh/capacity-type";
    private static final String NODE_POOL = "karpenter.sh/nodepool";
    private static final String ON_DEMAND = "on-demand";
    /** The capacity types of an instance type's offerings (reserved ones exist only with capacity reservations). */
    private static final Set<String> CAPACITY_TYPES = Set.of(ON_DEMAND, "spot");
    /** The labels of an offering besides its capacity type: every offering carries them, of many values. */
    private static final List<String> ZONE_LABELS = List.of("topology.kubernetes.io/zone", "topology.k8s.aws/zone-id");

    /**
     * Whether it selects the on-demand offerings of {@code type} (the prices the preview shows): every requirement
     * on a label of the type holds; one on the capacity type must admit on-demand; others (zone...) narrow nothing.
     */
    boolean selectsOnDemand(InstanceType type, Set<String> carried, NodeClassOffer nodeClass) {
        return requirements.stream()
                        .filter(requirement -> requirement.key().equals(CAPACITY_TYPE))
                        .allMatch(requirement -> requirement.admits(ON_DEMAND))
                && selectsType(type, carried, nodeClass);
    }

    /**
     * Whether its requirements on the labels of {@code type} hold (the operating system is the node class's); those
     * on its offerings' labels (capacity type, zone) and on labels no type carries narrow nothing here.
     */
    boolean selectsType(InstanceType type, Set<String> carried, NodeClassOffer nodeClass) {
        for (LabelRequirement requirement : requirements) {
            if (requirement.key().equals(CAPACITY_TYPE)) {
                continue;
            } else if (requirement.key().equals(InstanceType.OS_LABEL)) {
                if (!requirement.admits(nodeClass.os())) { // the node class's system, as on its nodes
                    return false;
                }
            } else if (carried.contains(requirement.key()) && !requirement.admits(type.label(requirement.key()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether it may apply to the nodes of one pool (Karpenter matches an overlay per pool): its requirements on the
     * pool's name (karpenter.sh/nodepool) and on the labels the pool gives its nodes hold, and a custom label the pool
     * does not give counts as absent. Well-known labels (of the kubernetes.io, k8s.io, karpenter.sh and
     * karpenter.k8s.aws domains) are the types' and offerings', matched per type.
     */
    public boolean appliesToPool(String pool, Map<String, String> labels) {
        for (LabelRequirement requirement : requirements) {
            String key = requirement.key();
            boolean holds = key.equals(NODE_POOL)
                    ? requirement.admits(pool)
                    : labels.containsKey(key)
                            ? requirement.admits(labels.get(key))
                            : wellKnown(key) || requirement.admits(null);
            if (!holds) {
                return false;
            }
        }
        return true;
    }

    /** Whether an offering (a capacity type in a zone) satisfies its requirements. */
    boolean selectsAnOffering() {
        return someOfferingSatisfies(requirements);
    }

    /** Whether an offering satisfies both its requirements and {@code other}'s: the offerings both would price. */
    boolean sharesAnOfferingWith(NodeOverlay other) {
        List<LabelRequirement> both = new ArrayList<>(requirements);
        both.addAll(other.requirements);
        return someOfferingSatisfies(both);
    }

    private static boolean someOfferingSatisfies(List<LabelRequirement> requirements) {
        return someValueSatisfies(requirements, CAPACITY_TYPE, CAPACITY_TYPES)
                && ZONE_LABELS.stream().allMatch(label -> someValueSatisfies(requirements, label, Set.of()));
    }

    /**
     * Whether a value of {@code label} satisfies every requirement on it: one of {@code values}, or where that is
     * empty (zones, whose names are not known here) one the requirements name or none of them names.
     */
    private static boolean someValueSatisfies(List<LabelRequirement> requirements, String label, Set<String> values) {
        List<LabelRequirement> onLabel = requirements.stream()
                .filter(requirement -> requirement.key().equals(label))
                .toList();
        Optional<List<String>> candidates = values.isEmpty()
                ? onLabel.stream()
                        .filter(requirement -> requirement.operator().equals("In"))
                        .map(LabelRequirement::values)
                        .findFirst()
                : Optional.of(List.copyOf(values));
        if (candidates.isEmpty()) {
            // A value none of them names is left, which only DoesNotExist refuses: every offering carries the label.
            return onLabel.stream()
                    .noneMatch(requirement -> requirement.operator().equals("DoesNotExist"));
        }
        return candidates.get().stream()
                .anyMatch(value -> onLabel.stream().allMatch(requirement -> requirement.admits(value)));
    }

    private static boolean wellKnown(String key) {
        int slash = key.indexOf('/');
        String domain = slash < 0 ? "" : key.substring(0, slash);
        return List.of("kubernetes.io", "k8s.io", "karpenter.sh", "karpenter.k8s.aws").stream()
                .anyMatch(known -> domain.equals(known) || domain.endsWith("." + known));
    }

    /** What the overlays that select a type make of its price and capacity. */
    public record Applied(
            Optional<BigDecimal> usdPerHour, Map<String, BigDecimal> addedCapacity, List<String> overlays) {}

    /** Applies {@code overlays} (in any order) to {@code type}'s on-demand offering. */
    static Applied apply(List<NodeOverlay> overlays, InstanceType type, Set<String> carried, NodeClassOffer nodeClass) {
        List<NodeOverlay> selecting = overlays.stream()
                .filter(overlay -> overlay.selectsOnDemand(type, carried, nodeClass))
                .sorted(PRECEDENCE)
                .toList();
        Optional<BigDecimal> price = type.usdPerHour();
        Optional<NodeOverlay> pricing = selecting.stream()
                .filter(overlay ->
                        overlay.price().isPresent() || overlay.priceAdjustment().isPresent())
                .findFirst();
        if (pricing.isPresent()) {
            price = pricing.get().priced(price);
        }
        Map<String, BigDecimal> capacity = new HashMap<>();
        // Lowest precedence first, so a higher one replaces the same resource.
        for (int i = selecting.size() - 1; i >= 0; i--) {
            selecting
                    .get(i)
                    .capacity()
                    .forEach((resource, quantity) -> capacity.put(resource, Quantity.parse(quantity)));
        }
        return new Applied(
                price,
                Map.copyOf(capacity),
                selecting.stream().map(NodeOverlay::name).toList());
    }

    /** The price after this overlay: its price, or the list price adjusted (never below zero). */
    Optional<BigDecimal> priced(Optional<BigDecimal> listPrice) {
        if (price.isPresent()) {
            return Optional.of(new BigDecimal(price.get()));
        }
        String adjustment = priceAdjustment.orElseThrow();
        return listPrice.map(base -> {
            BigDecimal adjusted = adjustment.endsWith("%")
                    ? base.add(base.multiply(new BigDecimal(adjustment.substring(0, adjustment.length() - 1)))
                            .divide(BigDecimal.valueOf(100), MathContext.DECIMAL64))
                    : base.add(new BigDecimal(adjustment));
            return adjusted.max(BigDecimal.ZERO).stripTrailingZeros();
        });
    }
}
