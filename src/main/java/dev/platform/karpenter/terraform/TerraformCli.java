package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The terraform executable, run in a stack's directory with one environment for the whole run: no prompts, no
 * colour, no version check, providers from a filesystem mirror when one is given, and one plugin cache shared by
 * every stack (so the 700 MB AWS provider is installed once, then linked).
 */
public final class TerraformCli {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one command did: its exit status and everything it printed (stdout and stderr, interleaved). */
    record Result(int exitCode, String output) {
        boolean succeeded() {
            return exitCode == 0;
        }
    }

    /**
     * Terraform run by a program: no prompts, output for a log rather than a person, and no version check against
     * checkpoint-api.hashicorp.com. The test harness runs Terraform with the same.
     */
    public static final Map<String, String> AUTOMATION =
            Map.of("TF_IN_AUTOMATION", "1", "TF_INPUT", "0", "CHECKPOINT_DISABLE", "1");

    /**
     * What Terraform prints on the first interrupt it receives. A second one makes it exit at once, leaving
     * resources it created out of its state: the line tells whether a process has had its one interrupt.
     */
    static final String INTERRUPTED = "Interrupt received.";

    private final String executable;
    private final Map<String, String> environment;
    private final Map<Process, Path> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    private TerraformCli(String executable, Map<String, String> environment) {
        this.executable = executable;
        this.environment = Map.copyOf(environment);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "stop-terraform"));
    }

    /**
     * A stopped run (Ctrl-C, a cancelled CI job, a kill) starts no further command and waits for the running ones
     * to stop, each after exactly one interrupt: Terraform then finishes the resource it is on and writes its state.
     * Ctrl-C in a terminal interrupts the whole process group, Terraform included, while a signal to this process
     * alone does not reach it; so a process gets its interrupt here only where it has not said it got one.
     */
    void stop() {
        synchronized (running) { // no command starts after this
            stopping = true;
        }
        if (running.isEmpty()) {
            return;
        }
        System.err.println("stacks: stopping: waiting for Terraform to finish what it is doing and write its state");
        sleep(Duration.ofSeconds(1)); // time for Terraform to handle an interrupt that reached it with this one
        running.forEach((process, output) -> {
            if (process.isAlive() && !printed(output, INTERRUPTED)) {
                process.destroy(); // SIGTERM, which Terraform handles as its first interrupt
            }
        });
        for (Process process : running.keySet()) {
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean printed(Path output, String line) {
        try {
            return Files.readString(output, StandardCharsets.UTF_8).contains(line);
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Terraform as the environment configures it ({@code TERRAFORM} names another executable), with the provider
     * {@code mirror} when present and a plugin cache: {@code TF_PLUGIN_CACHE_DIR}, else {@code defaultCache}.
     */
    static TerraformCli configure(Map<String, String> env, Optional<Path> mirror, Path defaultCache) {
        Map<String, String> environment = new LinkedHashMap<>(env);
        environment.putAll(AUTOMATION);
        try {
            if (mirror.isPresent()) {
                environment.put("TF_CLI_CONFIG_FILE", mirrorConfig(mirror.get()).toString());
            }
            String cache = env.getOrDefault("TF_PLUGIN_CACHE_DIR", "");
            Path cacheDir = cache.isBlank() ? defaultCache : Path.of(cache);
            Files.createDirectories(cacheDir);
            environment.put("TF_PLUGIN_CACHE_DIR", cacheDir.toAbsolutePath().toString());
            // Clusters run side by side on one cache. A stack's lock file is new (none is committed), and without
            // this Terraform (1.4 and later) installs the provider again for each init and rewrites the cache entry,
            // pulling it from under another cluster's running plan ("failed to verify checksum ... no such file").
            // With it, a cached provider is linked; the first init of a run, serialized, fills the cache.
            environment.put("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE", "true");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TerraformCli(env.getOrDefault("TERRAFORM", "terraform"), environment);
    }

    /**
     * A CLI configuration that installs every provider from {@code mirror} and from nowhere else: a provider missing
     * there fails init at once, instead of reaching for a registry.
     */
    public static Path mirrorConfig(Path mirror) throws IOException {
        if (!Files.isDirectory(mirror)) {
            throw new StacksException("the provider mirror " + mirror + " is not a directory (--plugin-mirror or"
                    + " TF_PLUGIN_MIRROR; `terraform providers mirror DIR` makes one)");
        }
        Path file = Files.createTempFile("stacks-terraform", ".rc");
        file.toFile().deleteOnExit();
        // A JSON string literal is a valid HCL one.
        Files.writeString(file, """
                provider_installation {
                  filesystem_mirror {
                    path = %s
                  }
                }
                """.formatted(
                        JSON.writeValueAsString(mirror.toAbsolutePath().toString())));
        return file;
    }

    /** Runs {@code terraform args...} in {@code directory} and waits for it. */
    Result run(Path directory, List<String> args) throws InterruptedException {
        return run(directory, args, false);
    }

    /**
     * Runs a command that prints one document on stdout ({@code show -json}): the result's output is stdout alone,
     * so a warning on stderr cannot corrupt it; on failure it is stderr, which says why.
     */
    Result document(Path directory, List<String> args) throws InterruptedException {
        return run(directory, args, true);
    }

    private Result run(Path directory, List<String> args, boolean stdoutOnly) throws InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable);
        command.addAll(args);
        Path output = null;
        Path stdout = null;
        try {
            output = Files.createTempFile("stacks-terraform", ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            if (stdoutOnly) {
                stdout = Files.createTempFile("stacks-terraform", ".json");
                builder.redirectOutput(stdout.toFile()).redirectError(output.toFile());
            } else {
                builder.redirectErrorStream(true).redirectOutput(output.toFile());
            }
            builder.environment().clear();
            builder.environment().putAll(environment);
            Process process;
            synchronized (running) {
                if (stopping) {
                    return new Result(130, "not started: the run is stopping");
                }
                try {
                    process = builder.start();
                } catch (IOException e) {
                    return new Result(127, "cannot start " + executable + ": " + e.getMessage());
                }
                running.put(process, output);
            }
            try {
                int exit = process.waitFor();
                return new Result(
                        exit, Files.readString(stdout != null && exit == 0 ? stdout : output, StandardCharsets.UTF_8));
            } finally {
                if (process.isAlive()) { // this thread was interrupted: the process gets its one interrupt
                    if (!printed(output, INTERRUPTED)) {
                        process.destroy();
                    }
                    process.onExit().join();
                }
                running.remove(process);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
            if (stdout != null) {
                stdout.toFile().delete();
            }
        }
    }
}
