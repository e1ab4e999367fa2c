package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The instance types a pool can launch: the catalogue's types that satisfy every requirement of the pool (ANDed, as
 * Karpenter reads them) and the node class's operating system and architectures, each with the resources it offers
 * under that node class.
 *
 * @param types           the matching types, in the catalogue's order
 * @param ignored         requirements on labels no instance type carries (zone, capacity type, the pool's own
 *                        labels): they choose among offerings or nodes, not types, so they narrow nothing here
 * @param emptiedBy       the first requirement after which no type was left; empty if types remain or if the node
 *                        class alone left none
 * @param unmetMinValues  requirements whose minValues the matching types cannot meet, with the distinct values found
 */
public record Selection(
        List<Candidate> types,
        List<LabelRequirement> ignored,
        Optional<LabelRequirement> emptiedBy,
        Map<LabelRequirement, Integer> unmetMinValues) {

    /** One matching type and what a node of it offers under the node class (worked out on first use). */
    public static final class Candidate {
        private final InstanceType type;
        private final NodeClassOffer nodeClass;
        private final NodeOverlay.Applied overlays;
        private NodeResources resources;

        Candidate(InstanceType type, NodeClassOffer nodeClass, NodeOverlay.Applied overlays) {
            this.type = type;
            this.nodeClass = nodeClass;
            this.overlays = overlays;
        }

        /** The node overlays that apply to its on-demand offering, by precedence. */
        public List<String> overlays() {
            return overlays.overlays();
        }

        public InstanceType type() {
            return type;
        }

        /** What a node offers, with the extended resources node overlays add. */
        public NodeResources resources() {
            if (resources == null) {
                resources = NodeResources.of(type, nodeClass).plus(overlays.addedCapacity());
            }
            return resources;
        }

        /** The on-demand price: the list price, or what the node overlays make of it. */
        public Optional<BigDecimal> usdPerHour() {
            return overlays.usdPerHour();
        }

        @Override
        public String toString() {
            return type.name();
        }
    }

    /** Matches {@code requirements} and {@code nodeClass} against {@code catalogue}. */
    public static Selection of(
            InstanceCatalogue catalogue, List<LabelRequirement> requirements, NodeClassOffer nodeClass) {
        return of(catalogue, requirements, nodeClass, List.of());
    }

    /** The same, with the prices and capacities {@code overlays} give the matching types. */
    public static Selection of(
            InstanceCatalogue catalogue,
            List<LabelRequirement> requirements,
            NodeClassOffer nodeClass,
            List<NodeOverlay> overlays) {
        Set<String> carried = new HashSet<>(catalogue.labelKeys());
        List<LabelRequirement> applied = new ArrayList<>();
        List<LabelRequirement> ignored = new ArrayList<>();
        for (LabelRequirement requirement : requirements) {
            (carried.contains(requirement.key()) ? applied : ignored).add(requirement);
        }
        List<InstanceType> left = new ArrayList<>();
        for (InstanceType type : catalogue.types()) {
            if (nodeClass.architectures().contains(type.architecture())) {
                left.add(type);
            }
        }
        Optional<LabelRequirement> emptiedBy = Optional.empty();
        for (LabelRequirement requirement : applied) {
            if (left.isEmpty()) {
                break;
            }
            left.removeIf(type -> !requirement.admits(label(type, requirement.key(), nodeClass)));
            if (left.isEmpty()) {
                emptiedBy = Optional.of(requirement);
            }
        }
        Map<LabelRequirement, Integer> unmet = new LinkedHashMap<>();
        for (LabelRequirement requirement : applied) {
            if (requirement.minValues().isPresent() && !left.isEmpty()) {
                Set<String> distinct = new TreeSet<>();
                left.forEach(type -> Optional.ofNullable(label(type, requirement.key(), nodeClass))
                        .ifPresent(distinct::add));
                if (distinct.size() < requirement.minValues().get()) {
                    unmet.put(requirement, distinct.size());
                }
            }
        }
        List<Candidate> candidates = left.stream()
                .map(type -> new Candidate(type, nodeClass, NodeOverlay.apply(overlays, type, carried, nodeClass)))
                .toList();
        return new Selection(candidates, List.copyOf(ignored), emptiedBy, unmet);
    }

    /** The type's label as nodes of this node class carry it: the os label is the node class's. */
    private static String label(InstanceType type, String key, NodeClassOffer nodeClass) {
        return key.equals(InstanceType.OS_LABEL) ? nodeClass.os() : type.label(key);
    }

    /** The names of the matching types. */
    public List<String> names() {
        return types.stream().map(candidate -> candidate.type().name()).toList();
    }

    /** The {@code count} cheapest matching types that have an on-demand price, cheapest first (then by name). */
    public List<Candidate> cheapest(int count) {
        return types.stream()
                .filter(candidate -> candidate.usdPerHour().isPresent())
                .sorted(Comparator.comparing(
                                (Candidate candidate) -> candidate.usdPerHour().get())
                        .thenComparing(candidate -> candidate.type().name()))
                .limit(count)
                .toList();
    }
}
