package dev.platform.karpenter.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus's own rule checker, {@code promtool} (Debian's prometheus package; .ci/run installs it). Without it on
 * PATH a test is skipped with one line; under CI ({@code CI=true}) it fails, as the integration tests do
 * ({@link IntegrationEnvironment}).
 */
public final class Promtool {
    /** Generous: promtool answers in well under a second, but the machine is shared. */
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final Path executable;

    private Promtool(Path executable) {
        this.executable = executable;
    }

    /** The promtool on PATH; skips (locally) or fails (under CI) the calling test without one. */
    public static Promtool require() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "promtool"))) {
                return new Promtool(Path.of(dir, "promtool"));
            }
        }
        String message = "`promtool` is not on PATH (apt-get install prometheus; .ci/run installs it)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        abort(message);
        throw new IllegalStateException("unreachable");
    }

    /** What one run printed, and how it ended. */
    public record Result(int exitCode, String output) {}

    /** Runs {@code promtool ARGS...} in {@code dir}. */
    public Result run(Path dir, String... args) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(List.of(args));
        try {
            Path log = Files.createTempFile(dir, "promtool", ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            int exit = Processes.run(builder, TIMEOUT, log);
            return new Result(exit, Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
