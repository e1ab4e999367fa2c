package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workflows' cluster matrix on a real synthesis: the build job's bundle step lists the clusters of the one
 * synthesized output for the per-cluster jobs. Apart from {@link WorkflowsTest} because it synthesizes (the jsii
 * kernel), which the rest of the workflows' checks do not, and an integration test because it needs the packaged jar
 * the bundle carries and starts the bundle's bin/stacks JVM.
 */
@IntegrationTest
class WorkflowMatrixIT {
    @TempDir
    Path temp;

    /**
     * The bundle step, run as each workflow's build job runs it (bash, GITHUB_OUTPUT, RUNNER_TEMP) on the real
     * synthesized output of 20 clusters: one matrix entry per cluster, in the manifest's order, the same in the
     * bundle's clusters.json.
     */
    @Test
    void aTwentyClusterOutputMakesATwentyEntryMatrix() throws Exception {
        List<String> names = IntStream.rangeClosed(1, 20)
                .mapToObj(i -> "cluster-%02d".formatted(i))
                .toList();
        Synthesized twenty = Synthesized.of(names.stream()
                .map(name -> TestConfigs.configFor(name, "us-west-2", TestConfigs.V1))
                .toArray(ClusterConfig[]::new));
        try {
            for (String workflow : List.of("deploy.yml", "drift.yml")) {
                JsonNode step = WorkflowsTest.stepWithId(
                        WorkflowsTest.read(workflow).path("jobs").path("build"), "bundle");
                Path runnerTemp = Files.createDirectories(temp.resolve(workflow));
                Path output = runnerTemp.resolve("github-output");
                int exit = WorkflowsTest.bash(
                        step.path("run").asText(),
                        Path.of("").toAbsolutePath(),
                        Map.of(
                                "GITHUB_OUTPUT", output.toString(),
                                "RUNNER_TEMP", runnerTemp.toString(),
                                "KARPENTER_OUTDIR", twenty.dir().toString()));
                assertThat(exit).isZero();
                List<String> lines = Files.readAllLines(output);
                assertThat(lines).hasSize(1).allMatch(line -> line.startsWith("clusters=["));
                JsonNode matrix = WorkflowsTest.YAML.readTree(lines.get(0).substring("clusters=".length()));
                assertThat(matrix).hasSize(20);
                assertThat(Json.texts(matrix)).containsExactlyElementsOf(names);
                assertThat(runnerTemp.resolve("bundle.tar")).isRegularFile();
            }
        } finally {
            twenty.afterAll(null);
        }
    }
}
