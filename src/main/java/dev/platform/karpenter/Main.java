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
 * Entry point of {@code cdktf synth}: reads and validates the configuration (while the jsii kernel starts, see
 * {@link Synthesis}), synthesizes every stack into a staging directory and moves it into the output directory. Bad
 * input exits with status 2 and one line on stderr, having written nothing.
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
        List<Path> tfvarsFiles;
        int processes;
        try {
            tfvarsFiles = ConfigLoader.files(ConfigLoader.locate(projectDir, env, err), err);
            processes = Synthesis.processes(tfvarsFiles.size(), env);
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        Path outdir = projectDir.resolve(env.getOrDefault("KARPENTER_OUTDIR", env.getOrDefault("CDKTF_OUTDIR", "cdktf.out")))
                .normalize();
        // Terraform runs in <outdir>/stacks/<stack>; local state paths are relative to that, so the project moves freely.
        String stateDir = outdir.resolve("stacks").resolve("any-stack").relativize(projectDir).toString();
        Path staging = null;
        try {
            if (!staged) {
                // Straight into the output directory, which the kernel creates as it starts: validate first.
                List<ClusterConfig> clusters = ConfigLoader.load(tfvarsFiles, env);
                try (Synthesis synthesis = Synthesis.start(tfvarsFiles, outdir, stateDir, processes)) {
                    synthesis.complete(clusters);
                }
                return 0;
            }
            staging = OutputDirectory.stagingFor(outdir);
            // The kernel (and any workers) start while the configuration is read and validated; on bad input the
            // staging directory they write to goes, and nothing else was touched.
            try (Synthesis synthesis = Synthesis.start(tfvarsFiles, staging, stateDir, processes)) {
                synthesis.complete(ConfigLoader.load(tfvarsFiles, env));
            }
            OutputDirectory.publish(staging, outdir);
            return 0;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot write " + outdir + ": " + e.getMessage());
            return 1;
        } catch (Synthesis.WorkerFailure e) {
            err.println("error: " + e.getMessage());
            return 1;
        } finally {
            if (staging != null) {
                OutputDirectory.deleteRecursively(staging);
            }
        }
    }
}
