package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import java.io.PrintStream;
import java.util.List;

/**
 * The synth's checks of each cluster's pools against the instance catalogue: a pool that can launch nothing (no
 * matching type, minValues the matching types cannot meet, limits below one node) is refused in one line naming the
 * pool and the requirement; what is likely a mistake is printed as a warning, and synth goes on.
 */
public final class PoolChecks {
    private PoolChecks() {}

    /**
     * Refuses the first pool of {@code config} that can launch nothing; prints the warnings to {@code warnings}, one
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
