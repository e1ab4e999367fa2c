package dev.platform.karpenter.terraform;

import dev.platform.karpenter.testing.IntegrationEnvironment;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.TerraformRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * bin/stacks run as a user runs it, as a process, against moto: the providers come only from the mirror the command
 * configures itself. Each run's output goes to target/stacks-logs/.
 */
final class StacksProcess {
    private static final Path STACKS = Path.of("bin/stacks").toAbsolutePath();
    private static final Duration TIMEOUT = Duration.ofMinutes(15);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** What a run did: its exit status, output (stdout and stderr) and time. */
    record Run(int status, String output, double seconds) {}

    private StacksProcess() {}

    /** {@code bin/stacks args... --outdir outdir}, in {@code outdir}, against {@code moto}. */
    static Run run(Path outdir, MotoServer moto, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(STACKS.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--outdir", outdir.toString()));
        Path log = Files.createDirectories(IntegrationEnvironment.buildDir().resolve("stacks-logs"))
                .resolve("stacks-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet() + "-" + args[0]
                        + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(outdir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        TerraformRunner.pointAtMoto(env, moto);
        env.remove("TF_CLI_CONFIG_FILE");
        env.put("TF_PLUGIN_MIRROR", IntegrationEnvironment.pluginMirror().toString());
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("bin/stacks " + String.join(" ", args) + " timed out; see " + log);
        }
        return new Run(process.exitValue(), Files.readString(log), (System.nanoTime() - start) / 1e9);
    }
}
