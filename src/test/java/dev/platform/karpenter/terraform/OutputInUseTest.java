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

        Thread.sleep(500);
        assertThat(synth).isNotDone();
        assertThat(log.toString(StandardCharsets.UTF_8)).contains(", or a bin/stacks run using it, to finish");

        run.getOutputStream().close(); // the run ends
        synth.get(10, TimeUnit.SECONDS).close();
        run.waitFor();
    }

    @Test
    void aRunWaitsForASynthesisAndRunsShareTheOutput() throws Exception {
        Process synth = holder("exclusive");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        CompletableFuture<OutputInUse> run = CompletableFuture.supplyAsync(
                () -> OutputInUse.hold(dir.resolve("cdktf.out"), new PrintStream(log, true, StandardCharsets.UTF_8)));

        Thread.sleep(500);
        assertThat(run).isNotDone();
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("stacks: waiting for the synthesis into");

        synth.getOutputStream().close();
        try (OutputInUse held = run.get(10, TimeUnit.SECONDS)) {
            Process otherRun = holder("shared"); // a second run shares it at once
            otherRun.getOutputStream().close();
            otherRun.waitFor();
        }
        synth.waitFor();
    }
}
