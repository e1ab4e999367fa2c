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
        Optional<String> impossible =
                ImpossibleRequirements.find(name, pool.requirements(), pool.nodeClass(), minValuesBestEffort);
        impossible.ifPresent(refusals::add);
        // What follows depends on the catalogue, one snapshot of the types AWS offers: Karpenter discovers types at
        // run time, so a pool the catalogue finds wanting may still launch. Warnings, never refusals.
        String catalogueNote = " in the catalogue (" + catalogueName(catalogue) + ")";
        if (impossible.isEmpty() && selection.types().isEmpty()) {
            List<String> unknown = unknownValues(catalogue, pool.requirements());
            warnings.add(selection
                            .emptiedBy()
                            .map(requirement -> name + " matches no instance type" + catalogueNote + ": requirement "
                                    + requirement.describe() + " (" + requirement.where() + ") leaves none")
                            .orElse(name + " matches no instance type" + catalogueNote + ": its node class \""
                                    + pool.nodeClassName() + "\" ("
                                    + pool.nodeClass().os() + ", "
                                    + String.join(
                                            "/", new TreeSet<>(pool.nodeClass().architectures()))
                                    + ") runs on none of the types its requirements allow")
                    + (unknown.isEmpty() ? "" : "; values the catalogue does not know: " + String.join(", ", unknown))
                    + " (Karpenter may know types the catalogue does not)");
        }
        if (impossible.isEmpty()) {
            selection
                    .unmetMinValues()
                    .forEach((requirement, found) -> warnings.add(name + ": requirement "
                            + requirement.describe() + " (" + requirement.where() + ") cannot be met" + catalogueNote
                            + ": the matching types have " + found + " value" + (found == 1 ? "" : "s") + " of "
                            + requirement.key()
                            + (minValuesBestEffort
                                    ? " (settings.minValuesPolicy BestEffort: Karpenter relaxes it)"
                                    : " (Karpenter launches nothing for it unless it finds more types)")));
        }
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
            warnings.add(name + ": limits " + pool.limits().keySet() + " (spec.limits) are below one node of its"
                    + " smallest matching type" + catalogueNote + ", " + smallest.name() + " (" + smallest.vcpus()
                    + " vCPU, " + smallest.memoryMiB() + " MiB): the pool launches nothing unless a smaller type"
                    + " comes");
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

    /** The catalogue as warnings name it: its source tag and the date of its prices. */
    static String catalogueName(InstanceCatalogue catalogue) {
        String generated = catalogue.pricesGenerated();
        return "aws/karpenter-provider-aws " + catalogue.tag() + ", prices of "
                + (generated.length() >= 10 ? generated.substring(0, 10) : generated);
    }

    /** The In values of labels the catalogue carries that no type of it has, as "key [values]". */
    static List<String> unknownValues(InstanceCatalogue catalogue, List<LabelRequirement> requirements) {
        List<String> unknown = new ArrayList<>();
        for (LabelRequirement requirement : requirements) {
            if (!requirement.operator().equals("In") || !catalogue.labelKeys().contains(requirement.key())) {
                continue;
            }
            List<String> missing = requirement.values().stream()
                    .filter(value ->
                            catalogue.types().stream().noneMatch(type -> value.equals(type.label(requirement.key()))))
                    .toList();
            if (!missing.isEmpty()) {
                unknown.add(requirement.key() + " " + missing);
            }
        }
        return unknown;
    }

    /** The requirements that narrow nothing here, as "key operator [values]". */
    public List<String> ignoredRequirements() {
        return selection.ignored().stream().map(LabelRequirement::describe).toList();
    }
}
