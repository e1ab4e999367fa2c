package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.NodeOverlay;
import dev.platform.karpenter.catalog.OverlayConflicts;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.release.ValuePath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every pool of one cluster evaluated against the catalogue, with the warnings that concern pools together.
 *
 * @param warnings the pools' warnings, node overlays Karpenter does not apply, then equal-weight pools whose types
 *     overlap
 */
public record ClusterPreview(ClusterConfig config, List<PoolPreview> pools, List<String> warnings) {
    /** The chart value that turns spot-to-spot consolidation on (off by default in every 1.x chart). */
    static final ValuePath SPOT_TO_SPOT_GATE = ValuePath.of("settings", "featureGates", "spotToSpotConsolidation");
    /** The chart value that relaxes minValues Karpenter cannot meet, rather than failing (1.6 on; default Strict). */
    static final ValuePath MIN_VALUES_POLICY = ValuePath.of("settings", "minValuesPolicy");
    /** The NodeOverlay gate: node_overlays turns it on, but controller_values has the last word. */
    static final ValuePath NODE_OVERLAY_GATE = ValuePath.of("settings", "featureGates", "nodeOverlay");

    public static ClusterPreview of(ClusterConfig config, InstanceCatalogue catalogue) {
        return of(config, catalogue, PoolDisruption.Options.now());
    }

    /** The preview, its disruption timelines over the stretch and node count {@code options} give. */
    public static ClusterPreview of(ClusterConfig config, InstanceCatalogue catalogue, PoolDisruption.Options options) {
        Map<String, Object> values = config.controller().chartValues();
        Optional<DriftGate> driftGate = DriftGate.of(config);
        boolean spotToSpot = "true".equals(String.valueOf(SPOT_TO_SPOT_GATE.valueIn(values)));
        boolean minValuesBestEffort = "BestEffort".equals(MIN_VALUES_POLICY.valueIn(values));
        boolean overlaysOff = "false".equals(String.valueOf(NODE_OVERLAY_GATE.valueIn(values)));
        List<NodeOverlay> declared = overlaysOff ? List.of() : PoolFacts.overlays(config);
        List<PoolFacts> facts = PoolFacts.of(config);
        // Karpenter applies an overlay that conflicts with another of the same weight nowhere.
        List<NodeOverlay.Scope> scopes = facts.stream()
                .map(pool -> new NodeOverlay.Scope(pool.name(), pool.labels(), config.region(), pool.nodeClass()))
                .toList();
        List<OverlayConflicts.Conflict> conflicts = OverlayConflicts.find(declared, scopes, catalogue);
        Set<NodeOverlay> dropped = new HashSet<>();
        conflicts.forEach(conflict -> dropped.add(conflict.overlay()));
        List<NodeOverlay> overlays =
                declared.stream().filter(overlay -> !dropped.contains(overlay)).toList();
        Set<String> carried = new HashSet<>(catalogue.labelKeys());
        List<PoolPreview> pools = new ArrayList<>();
        for (int i = 0; i < facts.size(); i++) {
            NodeOverlay.Scope scope = scopes.get(i);
            List<NodeOverlay> forPool = overlays.stream()
                    .filter(overlay -> overlay.appliesTo(scope, carried))
                    .toList();
            pools.add(PoolPreview.of(
                    catalogue,
                    facts.get(i),
                    forPool,
                    spotToSpot,
                    minValuesBestEffort,
                    config.release(),
                    driftGate.map(DriftGate::on).orElse(true),
                    options));
        }
        List<String> warnings = new ArrayList<>();
        driftGate.filter(gate -> !gate.on()).ifPresent(gate -> warnings.add(gate.describe()));
        pools.forEach(pool -> warnings.addAll(pool.warnings()));
        conflicts.forEach(conflict -> warnings.add(conflict.describe()));
        for (int i = 0; i < pools.size(); i++) {
            for (int j = i + 1; j < pools.size(); j++) {
                PoolPreview a = pools.get(i);
                PoolPreview b = pools.get(j);
                if (a.pool().weight() != b.pool().weight()) {
                    continue;
                }
                Set<String> shared = new HashSet<>(a.selection().names());
                shared.retainAll(b.selection().names());
                if (!shared.isEmpty()) {
                    warnings.add("pools \"" + a.pool().name() + "\" and \""
                            + b.pool().name() + "\" have the same weight ("
                            + a.pool().weight() + ") and share " + shared.size()
                            + " instance types: Karpenter picks either for a pod both accept (set weight in "
                            + b.pool().setting() + " to order them)");
                }
            }
        }
        return new ClusterPreview(config, List.copyOf(pools), List.copyOf(warnings));
    }

    /** The refusals of every pool. */
    public List<String> refusals() {
        return pools.stream().flatMap(pool -> pool.refusals().stream()).toList();
    }
}
