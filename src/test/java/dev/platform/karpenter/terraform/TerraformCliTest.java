package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stopped run gives each running Terraform exactly one interrupt and waits for it: a second one makes Terraform
 * exit at once and leave what it created out of its state. The stand-in terraform behaves as Terraform does: on its
 * first signal it prints "Interrupt received." and takes 2.5 s to finish (longer than the stop's grace second, so the
 * stop must decide while it still runs), on a second one it gives up.
 */
class TerraformCliTest {
    private static final String STAND_IN = """
            #!/bin/sh
            n=0
            stop=0
            trap 'n=$((n+1)); echo "Interrupt received."; echo "signal $n" >> "$MARK"; [ $n -ge 2 ] && exit 9; stop=1' INT TERM
            echo started >> "$MARK"
            while [ $stop = 0 ]; do sleep 0.05; done
            sleep 2.5
            echo "state written" >> "$MARK"
            exit 130
            """;

    @TempDir
    Path dir;

    private TerraformCli terraform(Path mark) throws IOException {
        Path script = dir.resolve("terraform");
        Files.writeString(script, STAND_IN);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return TerraformCli.configure(
                Map.of("TERRAFORM", script.toString(), "MARK", mark.toString(), "PATH", System.getenv("PATH")),
                Optional.empty(),
                dir.resolve("cache"));
    }

    private CompletableFuture<TerraformCli.Result> apply(TerraformCli terraform, Path mark) throws Exception {
        CompletableFuture<TerraformCli.Result> result = CompletableFuture.supplyAsync(() -> {
            try {
                return terraform.run(dir, List.of("apply"));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        awaitMark(mark, "started");
        return result;
    }

    @Test
    void aTerraformThatGotNoInterruptGetsOneAndIsWaitedFor() throws Exception {
        Path mark = dir.resolve("mark");
        TerraformCli terraform = terraform(mark);
        CompletableFuture<TerraformCli.Result> result = apply(terraform, mark);

        terraform.stop();

        assertThat(Files.readAllLines(mark)).containsExactly("started", "signal 1", "state written");
        assertThat(result.get().output()).contains(TerraformCli.INTERRUPTED);
    }

    /** Ctrl-C in a terminal reaches Terraform itself: the run must not interrupt it a second time. */
    @Test
    void aTerraformInterruptedAlreadyIsOnlyWaitedFor() throws Exception {
        Path mark = dir.resolve("mark");
        TerraformCli terraform = terraform(mark);
        CompletableFuture<TerraformCli.Result> result = apply(terraform, mark);
        List<ProcessHandle> standIns = ProcessHandle.current()
                .descendants()
                .filter(p -> p.info()
                        .commandLine()
                        .orElse("")
                        .contains(dir.resolve("terraform").toString()))
                .toList();
        assertThat(standIns).hasSize(1);
        // what a terminal's Ctrl-C sends it
        new ProcessBuilder("kill", "-INT", String.valueOf(standIns.get(0).pid()))
                .inheritIO()
                .start()
                .waitFor();
        awaitMark(mark, "signal 1");

        terraform.stop();

        assertThat(Files.readAllLines(mark)).containsExactly("started", "signal 1", "state written");
        assertThat(result.get().exitCode()).isEqualTo(130);
        // and nothing starts once the run is stopping
        assertThat(terraform.run(dir, List.of("apply")).output()).isEqualTo("not started: the run is stopping");
    }

    /**
     * Waits until the stand-in has written {@code line} to {@code mark}: no fixed delay, so a busy machine only makes it
     * slower (the ceiling is for a stand-in that never starts).
     */
    private static void awaitMark(Path mark, String line) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
        while (!(Files.exists(mark) && Files.readString(mark).contains(line)) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(mark).content().contains(line);
    }
}
