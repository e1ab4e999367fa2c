package dev.platform.karpenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
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

/** Clusters synthesized by worker processes come out exactly as a single process writes them. */
class SynthesisTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CLUSTERS = List.of("alpha", "bravo", "charlie", "delta", "echo");

    @TempDir
    static Path project;

    @BeforeAll
    static void writeClusters() throws IOException {
        Path dir = Files.createDirectories(project.resolve("clusters"));
        for (int i = 0; i < CLUSTERS.size(); i++) {
            Files.writeString(dir.resolve(CLUSTERS.get(i) + ".tfvars"), TestConfigs.tfvarsFor(CLUSTERS.get(i),
                    i % 2 == 0 ? "us-west-2" : "eu-west-1", i % 2 == 0 ? TestConfigs.V0 : TestConfigs.V1));
        }
    }

    @Test
    void workersWriteWhatASingleProcessWrites() throws IOException {
        Path single = synthesize("1", "single");
        Path parallel = synthesize("3", "parallel");

        Map<String, byte[]> singleFiles = files(single);
        Map<String, byte[]> parallelFiles = files(parallel);
        assertThat(parallelFiles.keySet()).containsExactlyElementsOf(singleFiles.keySet());
        assertThat(singleFiles.keySet()).filteredOn(path -> path.endsWith("cdk.tf.json")).hasSize(4 * CLUSTERS.size());
        singleFiles.forEach((path, content) -> {
            if (!path.equals("manifest.json")) {
                assertThat(new String(parallelFiles.get(path))).as(path).isEqualTo(new String(content));
            }
        });
        JsonNode singleManifest = JSON.readTree(single.resolve("manifest.json").toFile());
        JsonNode parallelManifest = JSON.readTree(parallel.resolve("manifest.json").toFile());
        assertThat(parallelManifest).isEqualTo(singleManifest);
        assertThat(stackNames(parallelManifest)).as("cluster order").containsExactlyElementsOf(stackNames(singleManifest));
    }

    @Test
    void aFailingWorkerFailsTheSynthesisWithItsErrorAndLeavesNoWorkerDirectory() throws IOException {
        Path good = project.resolve("clusters").resolve("alpha.tfvars");
        Path missing = project.resolve("no-such.tfvars");
        Path out = Files.createDirectories(project.resolve("failing"));

        List<ClusterConfig> parentsView = List.of(ConfigLoader.read(good), TestConfigs.configFor("gone", "us-west-2", TestConfigs.V1));
        try (Synthesis synthesis = Synthesis.start(List.of(good, missing), out, "../../..", 2)) {
            assertThatThrownBy(() -> synthesis.complete(parentsView))
                    .isInstanceOf(Synthesis.WorkerFailure.class)
                    .hasMessageContaining("no-such.tfvars");
        }
        try (Stream<Path> entries = Files.list(out)) {
            assertThat(entries.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith(".worker"));
        }
    }

    @Test
    void badInputStopsTheWorkersAlreadyStartedAndWritesNothing() throws IOException {
        Path dir = Files.createDirectories(project.resolve("bad"));
        for (String name : List.of("a1", "a2", "a3")) {
            Files.writeString(dir.resolve(name + ".tfvars"), TestConfigs.tfvarsFor(name, "us-west-2", TestConfigs.V1));
        }
        Files.writeString(dir.resolve("a4.tfvars"), TestConfigs.tfvars(TestConfigs.V1, "regoin = \"us-west-2\""));
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(dir, Map.of("KARPENTER_TFVARS", ".", "KARPENTER_OUTDIR", "out",
                Synthesis.PROCESSES_VARIABLE, "2"), new PrintStream(err));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("a4.tfvars: unknown setting regoin");
        try (Stream<Path> entries = Files.list(dir)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("a1.tfvars", "a2.tfvars", "a3.tfvars", "a4.tfvars");
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(child -> child.info().commandLine().orElse("").contains(SynthesisWorker.class.getName())))
                .as("no worker left running").isEmpty();
    }

    @Test
    void shardsAreContiguousAndTheFirstIsLargerByAWorkersStart() {
        List<Integer> fifty = java.util.stream.IntStream.range(0, 50).boxed().toList();

        List<List<Integer>> two = Synthesis.shards(fifty, 2);
        assertThat(two).extracting(List::size).containsExactly(27, 23);
        assertThat(two.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(fifty);
        assertThat(Synthesis.shards(fifty, 4)).extracting(List::size).containsExactly(16, 11, 11, 12);
        assertThat(Synthesis.shards(List.of(1, 2, 3, 4, 5), 3)).extracting(List::size).containsExactly(3, 1, 1);
        assertThat(Synthesis.shards(List.of(1, 2, 3), 9)).extracting(List::size).as("one item each at most").containsExactly(1, 1, 1);
        assertThat(Synthesis.shards(fifty, 1)).containsExactly(fifty);
    }

    @Test
    void processCountComesFromTheVariableOrFromClustersAndProcessors() {
        assertThat(Synthesis.processes(50, Map.of(Synthesis.PROCESSES_VARIABLE, "3"))).isEqualTo(3);
        assertThat(Synthesis.processes(2, Map.of(Synthesis.PROCESSES_VARIABLE, "8"))).as("one per cluster at most").isEqualTo(2);
        assertThat(Synthesis.processes(Synthesis.CLUSTERS_PER_PROCESS - 1, Map.of())).isEqualTo(1);
        assertThat(Synthesis.processes(100 * Synthesis.CLUSTERS_PER_PROCESS, Map.of()))
                .isEqualTo(Math.min(100, Runtime.getRuntime().availableProcessors()));
        for (String bad : List.of("0", "-1", "two", "1.5")) {
            assertThatThrownBy(() -> Synthesis.processes(50, Map.of(Synthesis.PROCESSES_VARIABLE, bad)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage(Synthesis.PROCESSES_VARIABLE + " must be a whole number of processes, 1 or more, got \"" + bad + "\"");
        }
    }

    private static Path synthesize(String processes, String outdir) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(project, Map.of("KARPENTER_TFVARS", "clusters", "KARPENTER_OUTDIR", outdir,
                Synthesis.PROCESSES_VARIABLE, processes), new PrintStream(err));
        assertThat(status).as(err.toString()).isZero();
        return project.resolve(outdir);
    }

    /** Every file under {@code dir} by relative path, in path order. */
    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(path).toString(), Files.readAllBytes(path));
            }
        }
        return files;
    }

    private static List<String> stackNames(JsonNode manifest) {
        List<String> names = new ArrayList<>();
        manifest.path("stacks").fieldNames().forEachRemaining(names::add);
        return names;
    }
}
