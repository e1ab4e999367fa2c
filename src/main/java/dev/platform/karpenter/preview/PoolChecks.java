package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import java.io.PrintStream;
import java.util.List;

/**
 * The synth's checks of each cluster's pools: a pool whose requirements no instance type could ever meet
 * (ImpossibleRequirements) is refused in one line naming the pool and the requirement; whatever depends on the
 * instance catalogue (no matching type, minValues its types cannot meet, limits below one node), since AWS adds types
 * and Karpenter discovers them at run time, and what is likely a mistake (disruption included) is printed as a
 * warning, one line each, and synth goes on.
 */
public final class PoolChecks {
    private PoolChecks() {}

    /**
     * Refuses the first pool of {@code config} that can never launch a node; prints the warnings to {@code warnings}, one
     * line each. The catalogue is read on the first call (once per process).
     */
    public static void check(ClusterConfig config, PrintStream warnings) {
        ClusterPreview preview = ClusterPreview.of(config, InstanceCatalogue.shipped());
        List<String> refusals = preview.refusals();
        if (!refusals.isEmpty()) {
            throw new ConfigException(refusals.get(0));
        }
        for (String warning : preview.warnings()) {
            warnings.println("warning: " + config.clusterName() + ": " + warning);
        }
    }
}
