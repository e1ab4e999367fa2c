package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.InstanceType;
import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.catalog.NodeOverlay;
import dev.platform.karpenter.catalog.NodeResources;
import dev.platform.karpenter.catalog.Selection;
import dev.platform.karpenter.catalog.Spending;
import dev.platform.karpenter.release.KarpenterRelease;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One pool evaluated against the catalogue: the types it can launch, what its limits allow, and what is wrong with
 * it: refusals (the synth stops) and warnings.
 */
public record PoolPreview(
        PoolFacts pool, Selection selection, List<String> refusals, List<String> warnings, PoolDisruption disruption) {
    /** Spot-to-spot consolidation needs this many types to choose from (upstream's documented floor). */
    static final int SPOT_TO_SPOT_MIN_TYPES = 15;

    /**
     * @param minValuesBestEffort settings.minValuesPolicy is BestEffort: Karpenter relaxes minValues it cannot meet,
     *                            so they are a warning rather than a refusal
     */
    static PoolPreview of(
            InstanceCatalogue catalogue,
            PoolFacts pool,
            List<NodeOverlay> overlays,
            boolean spotToSpot,
            boolean minValuesBestEffort,
            KarpenterRelease release,
            boolean driftOn,
            PoolDisruption.Options options) {
        Selection selection = catalogue.select(pool.requirements(), pool.nodeClass(), overlays);
        List<String> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        String name = "pool \"" + pool.name() + "\"";
        if (selection.types().isEmpty()) {
            refusals.add(selection
                    .emptiedBy()
                    .map(requirement -> name + " matches no instance type: requirement " + requirement.describe() + " ("
                            + requirement.where() + ") leaves none")
                    .orElse(name + " matches no instance type: its node class \"" + pool.nodeClassName() + "\" ("
                            + pool.nodeClass().os() + ", "
                            + String.join("/", new TreeSet<>(pool.nodeClass().architectures()))
                            + ") runs on none of the types its requirements allow"));
        }
        selection.unmetMinValues().forEach((requirement, found) -> {
            String unmet = name + ": requirement " + requirement.describe() + " (" + requirement.where()
                    + ") cannot be met: the matching types have " + found + " value" + (found == 1 ? "" : "s") + " of "
                    + requirement.key();
            if (minValuesBestEffort) {
                warnings.add(unmet + " (settings.minValuesPolicy BestEffort: Karpenter relaxes it)");
            } else {
                refusals.add(unmet);
            }
        });
        boolean fits =
                selection.types().isEmpty() || pool.limits().isEmpty() || Spending.anyFits(selection, pool.limits());
        List<String> zero = pool.limits().entrySet().stream()
                .filter(limit -> limit.getValue().signum() == 0)
                .map(Map.Entry::getKey)
                .toList();
        Map<String, BigDecimal> aboveZero = new LinkedHashMap<>(pool.limits());
        aboveZero.keySet().removeAll(zero);
        if (!fits && !zero.isEmpty() && (aboveZero.isEmpty() || Spending.anyFits(selection, aboveZero))) {
            // Zero limits that alone keep every node out pause a pool without deleting it (which would drain its
            // nodes): deliberate, not a mistake. Where the other limits keep them out too, those are the mistake.
            warnings.add(name + ": its limits " + zero + " (spec.limits) are zero: it launches no node while they"
                    + " stay so");
        } else if (!fits) {
            InstanceType smallest = selection.types().stream()
                    .map(Selection.Candidate::type)
                    .min(Comparator.comparingInt(InstanceType::vcpus).thenComparingLong(InstanceType::memoryMiB))
                    .orElseThrow();
            refusals.add(name + ": limits " + pool.limits().keySet() + " (spec.limits) are below one node of its"
                    + " smallest matching type, " + smallest.name() + " (" + smallest.vcpus() + " vCPU, "
                    + smallest.memoryMiB() + " MiB): the pool could launch nothing");
        }
        if (spotToSpot
                && pool.allowsSpot()
                && pool.consolidatesUnderutilized()
                && !selection.types().isEmpty()
                && selection.types().size() < SPOT_TO_SPOT_MIN_TYPES) {
            warnings.add(name + " allows spot with spot-to-spot consolidation on but matches "
                    + selection.types().size() + " instance types; consolidation replaces spot nodes only with "
                    + SPOT_TO_SPOT_MIN_TYPES + " or more to choose from (widen its requirements)");
        }
        Optional<Integer> maxPods = pool.nodeClass().kubelet().maxPods();
        int unusable = pool.nodeClass().interfaces().reserved()
                + pool.nodeClass().interfaces().efaOnly();
        if (maxPods.isPresent()) {
            List<String> over = selection.types().stream()
                    .filter(candidate -> NodeResources.eniLimitedPods(candidate.type(), unusable) < maxPods.get())
                    .map(candidate -> candidate.type().name())
                    .toList();
            if (!over.isEmpty()) {
                warnings.add(name + ": kubelet maxPods " + maxPods.get() + " of node class \"" + pool.nodeClassName()
                        + "\" is above what the network interfaces address on " + over.size() + " of its "
                        + selection.types().size() + " types (e.g. " + over.get(0) + ": "
                        + NodeResources.eniLimitedPods(
                                selection.types().stream()
                                        .filter(c -> c.type().name().equals(over.get(0)))
                                        .findFirst()
                                        .orElseThrow()
                                        .type(),
                                unusable)
                        + "); pods beyond that stay Pending unless the VPC CNI runs with prefix delegation");
            }
        }
        PoolDisruption disruption = PoolDisruption.of(
                pool.rendered(),
                pool.setting(),
                release,
                Spending.of(selection, pool.limits()).maxNodes(),
                driftOn,
                options);
        warnings.addAll(disruption.warnings());
        return new PoolPreview(pool, selection, List.copyOf(refusals), List.copyOf(warnings), disruption);
    }

    /** The requirements that narrow nothing here, as "key operator [values]". */
    public List<String> ignoredRequirements() {
        return selection.ignored().stream().map(LabelRequirement::describe).toList();
    }
}
