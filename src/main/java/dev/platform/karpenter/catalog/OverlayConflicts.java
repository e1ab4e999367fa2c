package dev.platform.karpenter.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The NodeOverlays Karpenter does not apply (its nodeoverlay controller, upstream docs "spec.weight"). It takes the
 * overlays in order of precedence; one that would set the price of an offering, or a capacity resource of an
 * instance type, in a pool where an overlay of the same weight taken before it already set it, conflicts. Karpenter
 * then applies that overlay nowhere, in no pool, and marks it Conflict in its status.
 *
 * <p>Offerings are modelled by their capacity type (on-demand or spot) and zone (any zone the requirements admit).
 * Capacity is compared with the last overlay that set capacity on the type, as Karpenter does.
 */
public final class OverlayConflicts {
    private OverlayConflicts() {}

    /**
     * {@code overlay} is not applied: {@code with}, of the same weight and taken before it, set the same thing first.
     *
     * @param what "price" or "capacity"
     */
    public record Conflict(NodeOverlay overlay, NodeOverlay with, String pool, String instanceType, String what) {

        /** One line for a warning. */
        public String describe() {
            return "node overlay \"" + overlay.name() + "\" sets the " + what + " of " + instanceType + " in pool \""
                    + pool + "\", as \"" + with.name() + "\" of the same weight (" + overlay.weight()
                    + ") does: Karpenter applies it nowhere and marks it Conflict (give one of them another weight)";
        }
    }

    /** The overlays of one cluster that conflict, in order of precedence, each with the first conflict found. */
    public static List<Conflict> find(
            List<NodeOverlay> overlays, List<NodeOverlay.Scope> pools, InstanceCatalogue catalogue) {
        if (overlays.size() < 2) {
            return List.of();
        }
        Set<String> carried = new HashSet<>(catalogue.labelKeys());
        // Per pool and type: the overlays applied so far that price it, and the last one that set capacity on it.
        Map<String, List<NodeOverlay>> pricedBy = new HashMap<>();
        Map<String, NodeOverlay> lastCapacity = new HashMap<>();
        List<Conflict> conflicts = new ArrayList<>();
        for (NodeOverlay overlay :
                overlays.stream().sorted(NodeOverlay.PRECEDENCE).toList()) {
            if (!overlay.selectsAnOffering()) {
                continue; // it applies nowhere, and so conflicts with nothing
            }
            boolean prices =
                    overlay.price().isPresent() || overlay.priceAdjustment().isPresent();
            boolean adds = overlay.capacity().isPresent();
            List<String> applied = new ArrayList<>();
            Optional<Conflict> conflict = Optional.empty();
            for (NodeOverlay.Scope pool : pools) {
                if (conflict.isPresent() || !overlay.appliesTo(pool, carried)) {
                    continue;
                }
                for (InstanceType type : catalogue.types()) {
                    if (!overlay.selectsType(type, carried, pool.nodeClass())) {
                        continue;
                    }
                    String key = pool.pool() + "\n" + type.name();
                    conflict = prices ? priceConflict(overlay, pricedBy.get(key), pool, type) : Optional.empty();
                    if (conflict.isEmpty() && adds) {
                        conflict = capacityConflict(overlay, lastCapacity.get(key), pool, type);
                    }
                    if (conflict.isPresent()) {
                        break;
                    }
                    applied.add(key);
                }
            }
            if (conflict.isPresent()) {
                conflicts.add(conflict.get());
                continue;
            }
            for (String key : applied) {
                if (prices) {
                    pricedBy.computeIfAbsent(key, k -> new ArrayList<>()).add(overlay);
                }
                if (adds) {
                    lastCapacity.put(key, overlay);
                }
            }
        }
        return List.copyOf(conflicts);
    }

    private static Optional<Conflict> priceConflict(
            NodeOverlay overlay, List<NodeOverlay> before, NodeOverlay.Scope pool, InstanceType type) {
        return Optional.ofNullable(before).orElse(List.of()).stream()
                .filter(earlier -> earlier.weight() == overlay.weight() && overlay.sharesAnOfferingWith(earlier))
                .findFirst()
                .map(earlier -> new Conflict(overlay, earlier, pool.pool(), type.name(), "price"));
    }

    private static Optional<Conflict> capacityConflict(
            NodeOverlay overlay, NodeOverlay last, NodeOverlay.Scope pool, InstanceType type) {
        if (last == null
                || last.weight() != overlay.weight()
                || Collections.disjoint(
                        last.capacity().orElseThrow().keySet(),
                        overlay.capacity().orElseThrow().keySet())) {
            return Optional.empty();
        }
        return Optional.of(new Conflict(overlay, last, pool.pool(), type.name(), "capacity"));
    }
}
