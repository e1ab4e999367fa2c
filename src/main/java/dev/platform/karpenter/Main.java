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
 * into a staging directory and moves it into the output directory. Bad input exits with status 2 and one line on
 * stderr, having written nothing.
 *
 * <p>Output directory: KARPENTER_OUTDIR (bin/app sets it from the cdktf CLI's CDKTF_OUTDIR), else CDKTF_OUTDIR,
 * else cdktf.out. cdktf's App itself prefers a CDKTF_OUTDIR found in the process environment over the directory it
 * is given; when that variable is live (the JVM started without bin/app), synthesis goes straight into it.
 */
public final class Main {
    static final int EXIT_BAD_INPUT = 2;

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), System.getenv(), System.err, System.getenv("CDKTF_OUTDIR") == null);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(Path projectDir, Map<String, String> env, PrintStream err) {
        return run(projectDir, env, err, true);
    }

    static int run(Path projectDir, Map<String, String> env, PrintStream err, boolean staged) {
        List<ClusterConfig> clusters;
        try {
            clusters = ConfigLoader.load(ConfigLoader.locate(projectDir, env, err), env);
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Path outdir = projectDir.resolve(env.getOrDefault("KARPENTER_OUTDIR", env.getOrDefault("CDKTF_OUTDIR", "cdktf.out")))
                .normalize();
        // Terraform runs in <outdir>/stacks/<stack>; local state paths are relative to that, so the project moves freely.
        String stateDir = outdir.resolve("stacks").resolve("any-stack").relativize(projectDir).toString();
        if (!staged) {
            KarpenterApp.synthesize(clusters, outdir, stateDir);
            return 0;
        }
        Path staging = null;
        try {
            staging = OutputDirectory.stagingFor(outdir);
            KarpenterApp.synthesize(clusters, staging, stateDir);
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
