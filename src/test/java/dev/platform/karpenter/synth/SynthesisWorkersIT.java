package dev.platform.karpenter.synth;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.configFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clusters synthesized by worker processes come out exactly as a single process writes them. Slow (worker JVMs, a
 * kernel each: about 3 s of CPU per worker), so an integration test, as {@link OutputDirectoryUnderKillsIT} is.
 */
@IntegrationTest
class SynthesisWorkersIT {
    private static final ObjectMapper JSON = Json.mapper();
    private static final List<String> CLUSTERS = List.of("alpha", "bravo", "charlie", "delta", "echo");

    @TempDir
    static Path project;

    @BeforeAll
    static void writeClusters() throws IOException {
        Path dir = Files.createDirectories(project.resolve("clusters"));
        for (int i = 0; i < CLUSTERS.size(); i++) {
            Files.writeString(
                    dir.resolve(CLUSTERS.get(i) + ".tfvars"),
                    TestConfigs.tfvarsFor(
                            CLUSTERS.get(i),
                            i % 2 == 0 ? "us-west-2" : "eu-west-1",
                            i % 2 == 0 ? TestConfigs.V0 : TestConfigs.V1));
        }
    }

    @Test
    void workersWriteWhatASingleProcessWrites() throws IOException {
        Path single = synthesize("1", "single");
        Path parallel = synthesize("3", "parallel");

        Map<String, byte[]> singleFiles = files(single);
        Map<String, byte[]> parallelFiles = files(parallel);
        assertThat(parallelFiles.keySet()).containsExactlyElementsOf(singleFiles.keySet());
        assertThat(singleFiles.keySet())
                .filteredOn(path -> path.endsWith("cdk.tf.json"))
                .hasSize(4 * CLUSTERS.size());
        singleFiles.forEach((path, content) ->
                assertThat(new String(parallelFiles.get(path))).as(path).isEqualTo(new String(content)));
        JsonNode manifest = JSON.readTree(parallel.resolve("manifest.json").toFile());
        assertThat(stackNames(manifest))
                .as("cluster order")
                .startsWith("alpha-iam")
                .endsWith("echo-nodepools");
    }

    @Test
    void workersBuildTheConfigurationsTheParentSendsWithoutReadingAnyFile() throws IOException {
        Path out = Files.createDirectories(project.resolve("sent"));
        List<ClusterConfig> configs =
                List.of(configFor("here", "us-west-2", V0), configFor("nowhere", "eu-west-1", V1));

        try (Synthesis synthesis = Synthesis.start(configs.size(), out, "../../..", 2)) {
            synthesis.complete(configs);
        }

        assertThat(stackNames(JSON.readTree(out.resolve("manifest.json").toFile())))
                .containsExactly(
                        "here-iam",
                        "here-interruption",
                        "here-karpenter",
                        "here-nodepools",
                        "nowhere-iam",
                        "nowhere-interruption",
                        "nowhere-karpenter",
                        "nowhere-nodepools");
        assertThat(out.resolve("stacks/nowhere-nodepools/manifests/nodepool.yaml"))
                .isRegularFile();
        assertThat(entries(out)).as("no worker directory left").containsExactlyInAnyOrder("manifest.json", "stacks");
    }

    @Test
    void aFailingWorkerFailsTheSynthesisWithItsLastLineAndLeavesNoWorkerDirectory() throws IOException {
        Path out = Files.createDirectories(project.resolve("failing"));
        List<ClusterConfig> configs = List.of(configFor("one", "us-west-2", V1), configFor("two", "us-west-2", V1));

        try (Synthesis synthesis = Synthesis.start(configs.size(), out, "../../..", 2)) {
            // The worker's output directory becomes a file: its synthesis cannot write there.
            Path workerDir = out.resolve(".worker-1");
            OutputDirectory.deleteRecursively(workerDir);
            Files.writeString(workerDir, "in the way");
            assertThatThrownBy(() -> synthesis.complete(configs))
                    .isInstanceOf(Synthesis.WorkerFailure.class)
                    .hasMessageStartingWith("a synthesis worker failed (exit 1): ")
                    .hasMessageNotContaining("\n");
        }
        assertThat(entries(out)).noneMatch(name -> name.startsWith(".worker"));
    }

    @Test
    void badInputStopsTheWorkersAlreadyStartedAndWritesNothing() throws IOException {
        Path dir = Files.createDirectories(project.resolve("bad"));
        for (String name : List.of("a1", "a2", "a3")) {
            Files.writeString(dir.resolve(name + ".tfvars"), TestConfigs.tfvarsFor(name, "us-west-2", TestConfigs.V1));
        }
        Files.writeString(dir.resolve("a4.tfvars"), TestConfigs.tfvars(TestConfigs.V1, "regoin = \"us-west-2\""));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(
                dir,
                Map.of(
                        "KARPENTER_TFVARS",
                        ".",
                        "KARPENTER_OUTDIR",
                        "out",
                        Synthesis.PROCESSES_VARIABLE,
                        "2",
                        "PATH",
                        System.getenv("PATH")),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("a4.tfvars: unknown setting regoin");
        assertThat(entries(dir)).containsExactlyInAnyOrder("a1.tfvars", "a2.tfvars", "a3.tfvars", "a4.tfvars");
        assertThat(ProcessHandle.current()
                        .children()
                        .filter(ProcessHandle::isAlive)
                        .filter(child -> child.info().commandLine().orElse("").contains(SynthesisWorker.ARGUMENT)))
                .as("no worker left running")
                .isEmpty();
    }

    private static Path synthesize(String processes, String outdir) {
        MainRuns.succeed(project, "clusters", outdir, Map.of(Synthesis.PROCESSES_VARIABLE, processes));
        return project.resolve(outdir);
    }

    /** Every file under {@code dir} by relative path, in path order. */
    private static Map<String, byte[]> files(Path link) throws IOException {
        Path dir = link.toRealPath();
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(path).toString(), Files.readAllBytes(path));
            }
        }
        return files;
    }

    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static List<String> stackNames(JsonNode manifest) {
        List<String> names = new ArrayList<>();
        manifest.path("stacks").fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aWorkerWhoseParentIsGoneStopsAtOnce() throws IOException {
        // Started as Synthesis starts a worker: with this JVM's options and class path.
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                SynthesisWorker.ARGUMENT,
                project.resolve("orphan").toString(),
                "../../.."));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        SynthesisWorker.send(
                List.of(TestConfigs.configFor("orphan", "us-west-2", TestConfigs.V1)), process.getOutputStream());

        process.getOutputStream().close();

        assertThat(waitFor(process)).isEqualTo(SynthesisWorker.EXIT_ORPHANED);
    }

    private static int waitFor(Process process) {
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("still running");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
