package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Synth processes killed (SIGKILL) at random instants while they write into one output directory: whatever the
 * instant, a reader finds one configuration's complete output, the next synth cleans up, and no worker or kernel
 * outlives its killed parent. Then two synths started together. Slow (a JVM per run), so an integration test.
 */
@IntegrationTest
class OutputDirectoryUnderKillsIT {
    private static final int KILLS = 10;
    private static final ObjectMapper JSON = Json.mapper();

    @TempDir
    Path project;

    @Test
    void aKillAtAnyInstantLeavesTheOldOrTheNewCompleteOutput() throws Exception {
        Path first = clusters("first", "a1", "a2");
        Path second = clusters("second", "b1", "b2", "b3");
        assertThat(synth(first, "1").waitFor()).isZero();
        long started = System.nanoTime();
        assertThat(synth(second, "1").waitFor()).isZero();
        // Kills spread over a whole synth and a bit beyond, so some land during the publish and some after it.
        int window = (int) ((System.nanoTime() - started) / 1_000_000 * 13 / 10);
        Random random = new Random(42);
        Map<String, Integer> seen = new TreeMap<>();
        List<ProcessHandle> survivors = new ArrayList<>();
        for (int i = 0; i < KILLS; i++) {
            Process run = synth(i % 2 == 0 ? first : second, random.nextBoolean() ? "2" : "1");
            Thread.sleep(random.nextInt(window));
            List<ProcessHandle> descendants = run.descendants().toList();
            run.destroyForcibly();
            run.waitFor();
            String state = state();
            seen.merge(state, 1, Integer::sum);
            assertThat(state).as("kill %d", i).isIn("a", "b");
            for (ProcessHandle descendant : descendants) {
                descendant.onExit().get(2, TimeUnit.MINUTES);
                if (descendant.isAlive()) {
                    survivors.add(descendant);
                }
            }
        }
        System.out.println("OutputDirectoryUnderKillsIT: " + KILLS + " kills, outputs seen " + seen);
        assertThat(survivors).as("workers and kernels die with their parent").isEmpty();

        assertThat(synth(first, "2").waitFor()).isZero();
        assertThat(state()).isEqualTo("a");
        assertThat(entries())
                .as("leftovers of the killed runs are gone")
                .noneMatch(name -> name.contains(".staging-"))
                .filteredOn(name -> name.contains(".gen-"))
                .hasSize(1);
    }

    @Test
    void twoSynthsStartedTogetherBothSucceedAndOneCompleteOutputRemains() throws Exception {
        Process one = synth(clusters("first", "a1", "a2"), "1");
        Process two = synth(clusters("second", "b1", "b2", "b3"), "1");

        assertThat(one.waitFor()).isZero();
        assertThat(two.waitFor()).isZero();
        assertThat(state()).isIn("a", "b");
        assertThat(entries())
                .noneMatch(name -> name.contains(".staging-"))
                .filteredOn(name -> name.contains(".gen-"))
                .hasSize(1);
    }

    private Path clusters(String name, String... clusterNames) throws IOException {
        Path dir = Files.createDirectories(project.resolve(name));
        for (String cluster : clusterNames) {
            Files.writeString(
                    dir.resolve(cluster + ".tfvars"), TestConfigs.tfvarsFor(cluster, "us-west-2", TestConfigs.V1));
        }
        return dir;
    }

    private Process synth(Path tfvars, String processes) throws IOException {
        // jsii unpacks its modules into the temporary directory and deletes them at exit, which a killed run never
        // reaches: kept inside the test's directory, they go with it.
        ProcessBuilder builder =
                MainRuns.asProcess(project, "-Djava.io.tmpdir=" + Files.createDirectories(project.resolve("tmp")));
        builder.environment()
                .putAll(Map.of(
                        "KARPENTER_TFVARS",
                        tfvars.toString(),
                        "KARPENTER_OUTDIR",
                        "out",
                        Synthesis.PROCESSES_VARIABLE,
                        processes,
                        "JSII_RUNTIME",
                        Path.of("libexec/jsii-kernel").toAbsolutePath().toString()));
        return builder.start();
    }

    /** "a" or "b": whose stacks the output holds, each with its cdk.tf.json; anything else is a broken output. */
    private String state() throws IOException {
        Path out = project.resolve("out");
        JsonNode stacks = JSON.readTree(out.resolve("manifest.json").toFile()).path("stacks");
        List<String> names = new ArrayList<>();
        stacks.fieldNames().forEachRemaining(names::add);
        for (String name : names) {
            if (!Files.isRegularFile(
                    out.resolve(stacks.path(name).path("synthesizedStackPath").asText()))) {
                return "missing " + name;
            }
        }
        List<String> dirs;
        try (Stream<Path> entries = Files.list(out.resolve("stacks"))) {
            dirs = entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
        if (!dirs.equals(names.stream().sorted().toList())) {
            return "stack directories " + dirs + " for " + names;
        }
        List<String> owners =
                names.stream().map(name -> name.substring(0, 1)).distinct().toList();
        return owners.size() == 1 ? owners.get(0) : "mixed " + names;
    }

    private List<String> entries() throws IOException {
        try (Stream<Path> entries = Files.list(project)) {
            return entries.map(p -> p.getFileName().toString()).toList();
        }
    }
}
