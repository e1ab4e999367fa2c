package dev.platform.karpenter;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Entry point of {@code cdktf synth}: reads and validates the configuration first, then synthesizes every stack
 * into a staging directory and moves it into CDKTF_OUTDIR (default cdktf.out). Bad input exits with status 2 and
 * one line on stderr, having written nothing.
 */
public final class Main {
    static final int EXIT_BAD_INPUT = 2;

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), System.getenv(), System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(Path projectDir, Map<String, String> env, PrintStream err) {
        List<ClusterConfig> clusters;
        try {
            clusters = ConfigLoader.load(ConfigLoader.locate(projectDir, env, err));
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Path outdir = projectDir.resolve(env.getOrDefault("CDKTF_OUTDIR", "cdktf.out")).normalize();
        String stateDirFromStack = outdir.resolve("stacks").resolve("any-stack").relativize(projectDir).toString();
        Path staging = null;
        try {
            staging = OutputDirectory.stagingFor(outdir);
            KarpenterApp.synthesize(clusters, staging, stateDirFromStack.isEmpty() ? "." : stateDirFromStack);
            OutputDirectory.publish(staging, outdir);
            return 0;
        } catch (IOException e) {
            err.println("error: cannot write " + outdir + ": " + e.getMessage());
            return 1;
        } finally {
            if (staging != null) {
                OutputDirectory.deleteRecursively(staging);
            }
        }
    }
}
