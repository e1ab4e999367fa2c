package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.synth.OutputDirectory;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthesis and a bin/stacks run on one output exclude each other through one lock file: the synthesis takes it
 * exclusively (publishing removes the generation a run works in), runs take it shared. The other side is another
 * process holding a POSIX lock, as the other JVM would.
 */
class OutputInUseTest {
    private static final String HOLDER = """
            import fcntl, sys
            f = open(sys.argv[1], "a+")
            fcntl.lockf(f, fcntl.LOCK_SH if sys.argv[2] == "shared" else fcntl.LOCK_EX)
            print("locked", flush=True)
            sys.stdin.read()
            """;

    @TempDir
    Path dir;

    private Process holder(String mode) throws Exception {
        Process process = new ProcessBuilder(
                        "python3",
                        "-c",
                        HOLDER,
                        OutputInUse.lockFile(dir.resolve("cdktf.out")).toString(),
                        mode)
                .start();
        String line =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).isEqualTo("locked");
        return process;
    }

    @Test
    void aSynthesisWaitsForARunUsingTheOutput() throws Exception {
        Process run = holder("shared");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        CompletableFuture<OutputDirectory.Lock> synth = CompletableFuture.supplyAsync(() ->
                OutputDirectory.at(dir.resolve("cdktf.out")).lock(new PrintStream(log, true, StandardCharsets.UTF_8)));

        // It says it waits (however long the machine takes to get there), and it still waits.
        awaitLogged(log, ", or a bin/stacks run using it, to finish");
        assertThat(synth).isNotDone();

        run.getOutputStream().close(); // the run ends
        synth.get(5, TimeUnit.MINUTES).close();
        run.waitFor();
    }

    @Test
    void aRunWaitsForASynthesisAndRunsShareTheOutput() throws Exception {
        Process synth = holder("exclusive");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        CompletableFuture<OutputInUse> run = CompletableFuture.supplyAsync(
                () -> OutputInUse.hold(dir.resolve("cdktf.out"), new PrintStream(log, true, StandardCharsets.UTF_8)));

        awaitLogged(log, "stacks: waiting for the synthesis into");
        assertThat(run).isNotDone();

        synth.getOutputStream().close();
        try (OutputInUse held = run.get(5, TimeUnit.MINUTES)) {
            Process otherRun = holder("shared"); // a second run shares it at once
            otherRun.getOutputStream().close();
            otherRun.waitFor();
        }
        synth.waitFor();
    }

    /** Waits until {@code log} holds {@code message}: no fixed delay, so a busy machine only makes it slower. */
    private static void awaitLogged(ByteArrayOutputStream log, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!log.toString(StandardCharsets.UTF_8).contains(message) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains(message);
    }
}
