package dev.platform.karpenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.hashicorp.cdktf.App;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One synthesis of every configured cluster into a directory, arranged so that slow starts overlap.
 *
 * <p>cdktf's Java runtime drives one Node.js kernel, one request at a time, so a JVM and its kernel mostly wait on
 * each other and a synthesis uses little more than one core. {@link #start} therefore begins everything that does
 * not need the configuration before it is read: the kernel starts on a background thread, and with enough clusters
 * worker JVMs ({@link SynthesisWorker}) start on later shards of the tfvars files. {@link #complete} then
 * synthesizes the first shard here, waits for the workers and merges their stacks and manifest entries into this
 * output, in cluster order, so the result is what a single process writes. Bad configuration is found by the caller
 * between the two calls; {@link #close} then stops whatever was started.
 *
 * <p>A worker costs a JVM and a kernel start (about half a second of CPU), so there is one process per
 * {@value #CLUSTERS_PER_PROCESS} clusters at most, and never more than there are processors. KARPENTER_SYNTH_WORKERS
 * sets the number of processes instead (1: everything in this one).
 */
public final class Synthesis implements AutoCloseable {
    public static final String PROCESSES_VARIABLE = "KARPENTER_SYNTH_WORKERS";
    static final int CLUSTERS_PER_PROCESS = 10;
    /**
     * How far behind a worker starts, in clusters: it boots a JVM and a kernel while this process is already at
     * work (measured with 50 clusters on 2 cores: about 350 ms, at about 90 ms a cluster in each process).
     */
    static final int WORKER_START_CLUSTERS = 4;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * Options of this JVM a worker must not repeat: one class archive to write, one debugger port, one recording
     * file and one agent per run.
     */
    private static final List<String> WORKER_EXCLUDED_OPTIONS = List.of("-XX:ArchiveClassesAtExit", "-agentlib:",
            "-agentpath:", "-javaagent:", "-Xrunjdwp", "-Xdebug", "-XX:StartFlightRecording", "-XX:FlightRecorderOptions");

    private final Path outdir;
    private final String stateDirFromStack;
    private final int ownShard;
    private final CompletableFuture<App> app;
    private final List<Worker> workers = new ArrayList<>();

    private Synthesis(Path outdir, String stateDirFromStack, int ownShard) {
        this.outdir = outdir;
        this.stateDirFromStack = stateDirFromStack;
        this.ownShard = ownShard;
        // Creating the App starts the kernel. No other thread uses jsii until complete() has joined this one.
        this.app = CompletableFuture.supplyAsync(() -> KarpenterApp.newApp(outdir));
    }

    /** How many processes synthesize {@code clusters} clusters: the variable's value, else what pays off here. */
    public static int processes(int clusters, Map<String, String> env) {
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
            throw new ConfigException(PROCESSES_VARIABLE + " must be a whole number of processes, 1 or more, got \""
                    + configured + "\"");
        }
        return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), clusters / CLUSTERS_PER_PROCESS));
    }

    /**
     * Starts this process's kernel and, for {@code processes} above 1, the workers on all shards but the first.
     *
     * @param tfvarsFiles one file per cluster, in cluster order
     */
    public static Synthesis start(List<Path> tfvarsFiles, Path outdir, String stateDirFromStack, int processes)
            throws IOException {
        List<List<Path>> shards = shards(tfvarsFiles, processes);
        Synthesis synthesis = new Synthesis(outdir, stateDirFromStack, shards.get(0).size());
        try {
            for (int i = 1; i < shards.size(); i++) {
                synthesis.workers.add(Worker.start(shards.get(i), outdir.resolve(".worker-" + i), stateDirFromStack));
            }
        } catch (IOException | RuntimeException e) {
            synthesis.close();
            throw e;
        }
        return synthesis;
    }

    /** Synthesizes this process's shard of {@code clusters} (read from the files, in order) and merges the rest. */
    public void complete(List<ClusterConfig> clusters) throws IOException {
        KarpenterApp.synthesize(kernelReady(), clusters.subList(0, ownShard), stateDirFromStack);
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
            OutputDirectory.deleteRecursively(worker.outdir);
            Files.deleteIfExists(worker.log);
        }
        // The App creates the output directory; it must not do so after the caller has removed it.
        app.exceptionally(failure -> null).join();
    }

    private App kernelReady() {
        try {
            return app.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Contiguous shards, in order: the first (this process's) larger by what a worker spends starting its own JVM
     * and kernel ({@value #WORKER_START_CLUSTERS} clusters' worth), the others of nearly equal size.
     */
    static <T> List<List<T>> shards(List<T> items, int processes) {
        int count = Math.max(1, Math.min(processes, items.size()));
        int first = Math.min(items.size() - (count - 1),
                (items.size() + (count - 1) * WORKER_START_CLUSTERS + count - 1) / count);
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
        ObjectNode manifest = (ObjectNode) JSON.readTree(manifestFile.toFile());
        ObjectNode stacks = (ObjectNode) manifest.path("stacks");
        JsonNode workerStacks = JSON.readTree(workerOutdir.resolve("manifest.json").toFile()).path("stacks");
        for (Iterator<Map.Entry<String, JsonNode>> it = workerStacks.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> stack = it.next();
            Path target = outdir.resolve("stacks").resolve(stack.getKey());
            OutputDirectory.deleteRecursively(target);
            Files.move(workerOutdir.resolve("stacks").resolve(stack.getKey()), target);
            stacks.set(stack.getKey(), stack.getValue());
        }
        JSON.writeValue(manifestFile.toFile(), manifest);
    }

    /** A worker process ended with an error; its output is in the message. */
    public static final class WorkerFailure extends RuntimeException {
        WorkerFailure(String message) {
            super(message);
        }
    }

    /** A worker JVM started with this JVM's options (but {@link #WORKER_EXCLUDED_OPTIONS}) and class path. */
    private record Worker(Process process, Path outdir, Path log) {
        static Worker start(List<Path> tfvarsFiles, Path outdir, String stateDirFromStack) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command()
                    .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (WORKER_EXCLUDED_OPTIONS.stream().noneMatch(option::startsWith)) {
                    command.add(option);
                }
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SynthesisWorker.class.getName(),
                    outdir.toString(), stateDirFromStack));
            tfvarsFiles.forEach(file -> command.add(file.toString()));
            Files.createDirectories(outdir);
            Path log = outdir.resolveSibling(outdir.getFileName() + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(log.toFile());
            // cdktf's App would write to CDKTF_OUTDIR rather than the worker's own directory.
            builder.environment().remove("CDKTF_OUTDIR");
            return new Worker(builder.start(), outdir, log);
        }

        void awaitSuccess() throws IOException {
            int status;
            try {
                status = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a synthesis worker", e);
            }
            String output = Files.exists(log) ? Files.readString(log).strip() : "";
            if (status != 0) {
                throw new WorkerFailure("a synthesis worker failed (exit " + status + ")"
                        + (output.isEmpty() ? "" : ":\n" + output));
            }
        }
    }
}
