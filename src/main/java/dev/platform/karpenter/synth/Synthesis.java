package dev.platform.karpenter.synth;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hashicorp.cdktf.App;
import dev.platform.karpenter.KarpenterApp;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One synthesis of every configured cluster into a directory, arranged so that slow starts overlap.
 *
 * <p>cdktf's Java runtime drives one Node.js kernel, one request at a time, so a JVM and its kernel mostly wait on
 * each other and a synthesis uses little more than one core. {@link #start} therefore begins everything that does
 * not need the configuration before it is read: the kernel starts on a background thread, and with enough clusters
 * worker processes ({@link SynthesisWorker}) boot their JVM and kernel. {@link #complete} then hands each worker its
 * share of the validated configurations, synthesizes the first share here, waits for the workers and merges their
 * stacks and manifest entries into this output, in cluster order, so the result is byte for byte what a single
 * process writes. Bad configuration is found by the caller between the two calls; {@link #close} then stops
 * whatever was started.
 *
 * <p>A worker costs a JVM and a kernel start (about half a second of CPU), and each process keeps about one core
 * busy, so there is one process per {@value #CLUSTERS_PER_PROCESS} clusters at most and one fewer than there are
 * processors: a worker pays off only with a core to spare. On 2 cores one process was the faster (20 clusters 2.2 s
 * against 2.9 s with a worker, 50 clusters 3.4 s against 3.9 s).
 * {@value #PROCESSES_VARIABLE} sets the number of processes instead (1: everything in this one).
 */
public final class Synthesis implements AutoCloseable {
    public static final String PROCESSES_VARIABLE = "KARPENTER_SYNTH_PROCESSES";
    /** The variable's first name, refused with a hint: it counts processes (this one included), not workers. */
    static final String RENAMED_PROCESSES_VARIABLE = "KARPENTER_SYNTH_WORKERS";

    static final int CLUSTERS_PER_PROCESS = 10;
    /** A cluster's work beside the kernel is two tasks at a time: its node pools' documents and controller values. */
    static final int BESIDE_THREADS = 2;
    /**
     * How far behind a worker starts, in clusters: it boots a JVM and a kernel while this process is already at
     * work (measured with 50 clusters on 2 cores: about 350 ms, at about 90 ms a cluster in each process).
     */
    static final int WORKER_START_CLUSTERS = 4;

    private static final ObjectMapper MANIFEST_READER = new ObjectMapper();
    /** manifest.json as cdktf writes it (JavaScript's JSON.stringify with two spaces), so a merge changes no byte. */
    private static final ObjectWriter MANIFEST = new ObjectMapper()
            .writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                            .withObjectEmptySeparator("")
                            .withArrayEmptySeparator(""))
                    .withObjectIndenter(new DefaultIndenter("  ", "\n"))
                    .withArrayIndenter(new DefaultIndenter("  ", "\n")));
    /**
     * Options of this JVM a worker must not repeat: one class archive to write, one debugger port, one recording
     * file and one agent per run.
     */
    private static final List<String> WORKER_EXCLUDED_OPTIONS = List.of(
            "-XX:ArchiveClassesAtExit",
            "-agentlib:",
            "-agentpath:",
            "-javaagent:",
            "-Xrunjdwp",
            "-Xdebug",
            "-XX:StartFlightRecording",
            "-XX:FlightRecorderOptions");

    private final Path outdir;
    private final String stateDirFromStack;
    private final int clusters;
    private final int processes;
    private final ExecutorService beside;
    private final CompletableFuture<App> app;
    private final List<Worker> workers = new ArrayList<>();

    private Synthesis(Path outdir, String stateDirFromStack, int clusters, int processes) {
        this.outdir = outdir;
        this.stateDirFromStack = stateDirFromStack;
        this.clusters = clusters;
        this.processes = processes;
        this.beside = besideKernel();
        // Creating the App starts the kernel. No other thread uses jsii until complete() has joined this one.
        this.app = CompletableFuture.supplyAsync(() -> KarpenterApp.newApp(outdir));
    }

    /** Threads for the work a synthesis does beside the kernel: a cluster's pool documents and controller values. */
    static ExecutorService besideKernel() {
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                BESIDE_THREADS, BESIDE_THREADS, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "beside-kernel");
                    thread.setDaemon(true);
                    return thread;
                });
        return executor;
    }

    /** How many processes synthesize {@code clusters} clusters: the variable's value, else what pays off here. */
    public static int processes(int clusters, Map<String, String> env) {
        if (env.containsKey(RENAMED_PROCESSES_VARIABLE)) {
            throw new BadEnvironment("environment variable " + RENAMED_PROCESSES_VARIABLE + " was renamed "
                    + PROCESSES_VARIABLE + " (it counts processes, this one included); set that instead");
        }
        String configured = env.get(PROCESSES_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            try {
                int value = Integer.parseInt(configured.trim());
                if (value >= 1) {
                    return Math.min(value, Math.max(1, clusters));
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new BadEnvironment("environment variable " + PROCESSES_VARIABLE
                    + " must be a whole number of processes, 1 or more, got " + ConfigException.quote(configured));
        }
        return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors() - 1, clusters / CLUSTERS_PER_PROCESS));
    }

    /**
     * Starts this process's kernel and, for {@code processes} above 1, the workers for all shares but the first;
     * they wait for their configurations.
     */
    public static Synthesis start(int clusters, Path outdir, String stateDirFromStack, int processes)
            throws IOException {
        Synthesis synthesis = new Synthesis(outdir, stateDirFromStack, clusters, processes);
        try {
            int shares = shards(Collections.nCopies(clusters, 0), processes).size();
            for (int i = 1; i < shares; i++) {
                synthesis.workers.add(Worker.start(outdir.resolve(".worker-" + i), stateDirFromStack));
            }
        } catch (IOException | RuntimeException e) {
            synthesis.close();
            throw e;
        }
        return synthesis;
    }

    /** Synthesizes {@code clusters} (one per tfvars file, in order): the first share here, the others in workers. */
    public void complete(List<ClusterConfig> configs) throws IOException {
        if (configs.size() != clusters) {
            throw new IllegalArgumentException(configs.size() + " configurations for " + clusters + " clusters");
        }
        List<List<ClusterConfig>> shares = shards(configs, processes);
        for (int i = 0; i < workers.size(); i++) {
            workers.get(i).send(shares.get(i + 1));
        }
        KarpenterApp.synthesize(kernelReady(), outdir, shares.get(0), stateDirFromStack, beside);
        for (Worker worker : workers) {
            worker.awaitSuccess();
        }
        for (Worker worker : workers) {
            merge(worker.outdir);
        }
    }

    /** Stops workers still running and removes their directories; waits for the kernel start to settle. */
    @Override
    public void close() throws IOException {
        for (Worker worker : workers) {
            // Its kernel first: it could otherwise still be writing into the directory removed below.
            worker.process.descendants().forEach(ProcessHandle::destroyForcibly);
            worker.process.destroyForcibly();
        }
        for (Worker worker : workers) {
            try {
                worker.process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            worker.process.getOutputStream().close();
            OutputDirectory.deleteRecursively(worker.outdir);
            Files.deleteIfExists(worker.log);
        }
        beside.shutdownNow();
        // The App creates the output directory; it must not do so after the caller has removed it.
        app.exceptionally(failure -> null).join();
    }

    /** The App, once its kernel has started; a kernel that could not start is a {@link KernelFailure}. */
    private App kernelReady() {
        try {
            return app.join();
        } catch (CompletionException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            throw new KernelFailure("the jsii kernel (Node.js) did not start: " + cause.getMessage());
        }
    }

    /**
     * Contiguous shards, in order: the first (this process's) larger by what a worker spends starting its own JVM
     * and kernel ({@value #WORKER_START_CLUSTERS} clusters' worth), the others of nearly equal size.
     */
    static <T> List<List<T>> shards(List<T> items, int processes) {
        int count = Math.max(1, Math.min(processes, items.size()));
        int first = Math.min(
                items.size() - (count - 1), (items.size() + (count - 1) * WORKER_START_CLUSTERS + count - 1) / count);
        List<List<T>> shards = new ArrayList<>();
        shards.add(items.subList(0, first));
        int from = first;
        for (int i = 1; i < count; i++) {
            int to = from + (items.size() - from) / (count - i);
            shards.add(items.subList(from, to));
            from = to;
        }
        return shards;
    }

    /** Moves a worker's stack directories into the output and adds its stacks to the manifest there. */
    private void merge(Path workerOutdir) throws IOException {
        Path manifestFile = outdir.resolve("manifest.json");
        ObjectNode manifest = (ObjectNode) MANIFEST_READER.readTree(manifestFile.toFile());
        ObjectNode stacks = (ObjectNode) manifest.path("stacks");
        JsonNode workerStacks = MANIFEST_READER
                .readTree(workerOutdir.resolve("manifest.json").toFile())
                .path("stacks");
        for (Iterator<Map.Entry<String, JsonNode>> it = workerStacks.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> stack = it.next();
            Path target = outdir.resolve("stacks").resolve(stack.getKey());
            OutputDirectory.deleteRecursively(target);
            Files.move(workerOutdir.resolve("stacks").resolve(stack.getKey()), target);
            stacks.set(stack.getKey(), stack.getValue());
        }
        Files.write(manifestFile, MANIFEST.writeValueAsBytes(manifest));
    }

    /** The kernel of this process did not start (JSII_RUNTIME names nothing runnable, Node.js fails...). */
    public static final class KernelFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        KernelFailure(String message) {
            super(message);
        }
    }

    /** A worker process ended with an error; the last line it wrote is in the message. */
    public static final class WorkerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WorkerFailure(String message) {
            super(message);
        }
    }

    /** A worker JVM started with this JVM's options (but {@link #WORKER_EXCLUDED_OPTIONS}) and class path. */
    private record Worker(Process process, Path outdir, Path log) {
        static Worker start(Path outdir, String stateDirFromStack) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current()
                    .info()
                    .command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java")
                            .toString()));
            for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (WORKER_EXCLUDED_OPTIONS.stream().noneMatch(option::startsWith)) {
                    command.add(option);
                }
            }
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    SynthesisWorker.ARGUMENT,
                    outdir.toString(),
                    stateDirFromStack));
            Files.createDirectories(outdir);
            Path log = outdir.resolveSibling(outdir.getFileName() + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(log.toFile());
            return new Worker(builder.start(), outdir, log);
        }

        /** Hands over the worker's clusters; its input stays open as long as this process lives. */
        void send(List<ClusterConfig> clusters) throws IOException {
            OutputStream input = process.getOutputStream();
            SynthesisWorker.send(clusters, input);
        }

        void awaitSuccess() throws IOException {
            int status;
            try {
                status = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a synthesis worker", e);
            }
            if (status != 0) {
                List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
                String last = lines.stream()
                        .map(String::strip)
                        .filter(line -> !line.isEmpty())
                        .reduce((first, second) -> second)
                        .orElse("no output");
                throw new WorkerFailure("a synthesis worker failed (exit " + status + "): " + last);
            }
        }
    }
}
