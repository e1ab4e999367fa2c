package dev.platform.karpenter.synth;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.preview.PoolChecks;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.jsii.JsiiException;

/**
 * The one entry point: {@code cdktf synth}'s app command (through libexec/app) and, with
 * {@value SynthesisWorker#ARGUMENT}, a worker process of a synthesis.
 *
 * <p>A synthesis checks its environment ({@link RunSettings}), reads and validates the configuration while the jsii
 * kernel starts ({@link Synthesis}), synthesizes into a staging directory and publishes it ({@link OutputDirectory}).
 * Bad input of any kind exits with status 2 and one line on stderr, having published nothing; informational lines
 * go to stdout (the cdktf CLI shows an app's stderr as errors).
 */
public final class Main {
    static final int EXIT_BAD_INPUT = 2;
    static final int EXIT_FAILED = 1;

    private Main() {}

    public static void main(String[] args) throws IOException {
        int status = args.length > 0 && args[0].equals(SynthesisWorker.ARGUMENT)
                ? SynthesisWorker.run(args, System.in)
                : run(Path.of("").toAbsolutePath(), System.getenv(), System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** One synthesis of the project at {@code projectDir}; returns the exit status. */
    public static int run(Path projectDir, Map<String, String> env, PrintStream out, PrintStream err) {
        try {
            RunSettings settings = RunSettings.from(projectDir, env);
            List<Path> tfvarsFiles = ConfigLoader.files(ConfigLoader.locate(projectDir, env, out), out);
            int processes = Synthesis.processes(tfvarsFiles.size(), env);
            OutputDirectory output = settings.output();
            Path staging = output.newStaging();
            try {
                // The kernel (and any workers) start while the configuration is read and validated; on bad input
                // the staging directory they write to goes, and nothing else was touched.
                try (Synthesis synthesis =
                        Synthesis.start(tfvarsFiles.size(), staging, settings.stateDirFromStack(), processes)) {
                    synthesis.complete(ConfigLoader.load(tfvarsFiles, env, config -> {
                        SpecCheck.requireValid(config);
                        PoolChecks.check(config, err);
                    }));
                }
                OutputDirectory.Lock lock = output.lock(out);
                try {
                    output.recover();
                    output.publish(staging, settings.underCdktfCli());
                } finally {
                    lock.close();
                }
            } finally {
                OutputDirectory.deleteRecursively(staging);
            }
            return 0;
        } catch (ConfigException | BadEnvironment e) {
            report(err, e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            report(err, "cannot write the output: " + OutputDirectory.reason(e));
            return EXIT_FAILED;
        } catch (UncheckedIOException e) {
            report(err, "cannot write the output: " + OutputDirectory.reason(e.getCause()));
            return EXIT_FAILED;
        } catch (Synthesis.WorkerFailure | Synthesis.KernelFailure e) {
            report(err, e.getMessage());
            return EXIT_FAILED;
        } catch (JsiiException e) {
            report(err, "the jsii kernel (Node.js) failed: " + e.getMessage());
            return EXIT_FAILED;
        }
    }

    /** Prints {@code message} as one line of at most {@value ConfigException#MAX_LENGTH} characters. */
    static void report(PrintStream err, String message) {
        String line = "error: " + String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", " ");
        err.println(
                line.length() <= ConfigException.MAX_LENGTH
                        ? line
                        : line.substring(0, ConfigException.MAX_LENGTH - 1) + "…");
    }
}
