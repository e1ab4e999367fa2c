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
 * @param capacity resource name to quantity, as written; empty where the spec has no capacity (an empty map is
 *     written capacity, which Karpenter's conflict check remembers)
 */
public record NodeOverlay(
        String name,
        int weight,
        List<LabelRequirement> requirements,
        Optional<String> price,
        Optional<String> priceAdjustment,
        Optional<Map<String, String>> capacity) {

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

    private static final Set<String> OFFERING_LABELS = Set.of(CAPACITY_TYPE, ZONE_LABELS.get(0), ZONE_LABELS.get(1));
    private static final String REGION = "topology.kubernetes.io/region";
    private static final String WINDOWS_BUILD = "node.kubernetes.io/windows-build";
    private static final String TENANCY = "karpenter.k8s.aws/instance-tenancy";
    /** The tenancies every AWS instance type offers, as Karpenter labels them. */
    private static final List<String> TENANCIES = List.of("default", "dedicated");

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
     * Where an overlay is matched: one pool of one cluster. Karpenter matches an overlay's requirements against the
     * pool's name, the labels of its template and the requirements of each instance type it may launch (nodeoverlay
     * controller, getOverlaidOfferings), not against the pool's own requirements.
     *
     * @param templateLabels the pool's spec.template.metadata.labels
     */
    public record Scope(String pool, Map<String, String> templateLabels, String region, NodeClassOffer nodeClass) {}

    /**
     * Whether it may apply in {@code scope}: its requirements on what every instance type there has alike hold. Those
     * on labels of the catalogue's types ({@code carried}), the operating system and the offerings (capacity type,
     * zone) are matched per type and offering. Karpenter defines the region, and on Linux no Windows build and, without
     * capacity reservations, no reservation labels; a label no one defines (a custom label the template does not
     * set) satisfies only NotIn and DoesNotExist, as Karpenter's Compatible has it.
     */
    public boolean appliesTo(Scope scope, Set<String> carried) {
        for (LabelRequirement requirement : requirements) {
            String key = requirement.key();
            boolean holds;
            if (key.equals(NODE_POOL)) {
                holds = requirement.admits(scope.pool());
            } else if (scope.templateLabels().containsKey(key)) {
                holds = requirement.admits(scope.templateLabels().get(key));
            } else if (carried.contains(key) || key.equals(InstanceType.OS_LABEL) || OFFERING_LABELS.contains(key)) {
                holds = true; // per type or offering
            } else if (key.equals(REGION)) {
                holds = requirement.admits(scope.region());
            } else if (key.equals(WINDOWS_BUILD) && scope.nodeClass().os().equals("windows")) {
                // Windows nodes carry their release's build, which is not known here: only its absence fails.
                holds = !requirement.operator().equals("DoesNotExist");
            } else if (key.equals(TENANCY)) {
                holds = TENANCIES.stream().anyMatch(requirement::admits);
            } else {
                holds = requirement.admits(null);
            }
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
                    .orElse(Map.of())
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
