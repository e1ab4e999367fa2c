package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.catalog.NodeResources;
import dev.platform.karpenter.catalog.Selection;
import dev.platform.karpenter.catalog.Spending;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One pool evaluated against the catalogue: the types it can launch, what its limits allow, and what is wrong with
 * it: refusals (the synth stops) and warnings.
 */
public record PoolPreview(
        RenderedPool pool, Selection selection, Spending spending, List<String> refusals, List<String> warnings) {
    /** Spot-to-spot consolidation needs this many types to choose from (upstream's documented floor). */
    static final int SPOT_TO_SPOT_MIN_TYPES = 15;

    static PoolPreview of(InstanceCatalogue catalogue, RenderedPool pool, boolean spotToSpot) {
        Selection selection = Selection.of(catalogue, pool.requirements(), pool.nodeClass());
        Spending spending = Spending.of(selection, pool.limits());
        List<String> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        String name = "pool \"" + pool.name() + "\"";
        if (selection.types().isEmpty()) {
            refusals.add(selection
                    .emptiedBy()
                    .map(requirement -> name + " matches no instance type: " + requirement.where() + " ("
                            + requirement.describe() + ") leaves none")
                    .orElse(name + " matches no instance type: node class \"" + pool.nodeClassName() + "\" ("
                            + pool.nodeClass().os() + ", "
                            + String.join(
                                    "/",
                                    pool.nodeClass().architectures().stream()
                                            .sorted()
                                            .toList())
                            + ") offers none of them"));
        }
        selection
                .unmetMinValues()
                .forEach((requirement, found) -> refusals.add(name + ": " + requirement.where()
                        + " asks minValues " + requirement.minValues().get() + " for " + requirement.key()
                        + " but the matching types have " + found));
        if (!selection.types().isEmpty() && !pool.limits().isEmpty() && spending.fittingTypes() == 0) {
            refusals.add(name + ": " + pool.setting() + ".limits "
                    + pool.limits().keySet() + " are below one node of its smallest matching type");
        }
        if (spotToSpot
                && pool.allowsSpot()
                && pool.consolidatesUnderutilized()
                && !selection.types().isEmpty()
                && selection.types().size() < SPOT_TO_SPOT_MIN_TYPES) {
            warnings.add(name + " allows spot with spot-to-spot consolidation on but matches "
                    + selection.types().size() + " instance types; consolidation replaces spot nodes only with "
                    + SPOT_TO_SPOT_MIN_TYPES + " or more to choose from (widen " + pool.setting()
                    + ".template.spec.requirements)");
        }
        Optional<Integer> maxPods = pool.nodeClass().kubelet().maxPods();
        if (maxPods.isPresent()) {
            List<String> over = selection.types().stream()
                    .filter(candidate -> NodeResources.eniLimitedPods(candidate.type()) < maxPods.get())
                    .map(candidate -> candidate.type().name())
                    .toList();
            if (!over.isEmpty()) {
                warnings.add(name + ": kubelet maxPods " + maxPods.get() + " of node class \"" + pool.nodeClassName()
                        + "\" is above what the network interfaces address on " + over.size() + " of its "
                        + selection.types().size() + " types (e.g. " + over.get(0) + ": "
                        + NodeResources.eniLimitedPods(selection.types().stream()
                                .filter(c -> c.type().name().equals(over.get(0)))
                                .findFirst()
                                .orElseThrow()
                                .type())
                        + "); pods beyond that stay Pending unless the VPC CNI runs with prefix delegation");
            }
        }
        return new PoolPreview(pool, selection, spending, List.copyOf(refusals), List.copyOf(warnings));
    }

    /** The requirements that narrow nothing here, as "key operator [values]". */
    public List<String> ignoredRequirements() {
        return selection.ignored().stream().map(LabelRequirement::describe).toList();
    }
}
