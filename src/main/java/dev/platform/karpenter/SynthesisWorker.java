package dev.platform.karpenter;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of a worker process of {@link Synthesis}: synthesizes the clusters of some tfvars files into a
 * directory of its own. The parent has validated every file; a file that fails here has changed since.
 *
 * <p>Arguments: output directory, the project directory as seen from a stack's working directory (for local state
 * paths), then the tfvars files in cluster order.
 */
public final class SynthesisWorker {
    private SynthesisWorker() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: SynthesisWorker OUTDIR STATE_DIR_FROM_STACK TFVARS...");
            System.exit(Main.EXIT_BAD_INPUT);
        }
        List<Path> files = Arrays.stream(args, 2, args.length).map(Path::of).toList();
        List<ClusterConfig> clusters;
        try {
            clusters = ConfigLoader.load(files, System.getenv());
        } catch (ConfigException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(Main.EXIT_BAD_INPUT);
            return;
        }
        KarpenterApp.synthesize(clusters, Path.of(args[0]), args[1]);
    }
}
