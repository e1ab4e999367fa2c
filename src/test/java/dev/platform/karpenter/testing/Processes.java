package dev.platform.karpenter.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Process plumbing shared by the harness classes. */
final class Processes {
    private Processes() {}

    /**
     * Starts {@code builder} and waits for it. A process that outlives {@code timeout} is killed together with its
     * children (terraform forks provider plugins), so a hang fails the test instead of blocking CI.
     *
     * @param log where the builder sends the process's diagnostics; its tail goes into the error
     * @return the exit code
     */
    static int run(ProcessBuilder builder, Duration timeout, Path log) {
        try {
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                throw new AssertionError(
                        String.join(" ", builder.command()) + " timed out after " + timeout + "\n" + tail(log));
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + builder.command(), e);
        }
    }

    /** The last 60 lines of {@code file}, headed by its path, for failure messages. */
    /** Asks {@code process} to end, and ends it forcibly when it has not within ten seconds. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String tail(Path file) {
        try {
            // Lenient decoding: a stray byte in tool output must not hide the failure being reported.
            List<String> lines = new String(Files.readAllBytes(file), StandardCharsets.UTF_8)
                    .lines()
                    .toList();
            List<String> last = lines.subList(Math.max(0, lines.size() - 60), lines.size());
            return "--- last " + last.size() + " lines of " + file + " ---\n" + String.join("\n", last);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }
}
