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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workflows' cluster matrix on a real synthesis. Apart from {@link WorkflowsTest} because it synthesizes (the
 * jsii kernel), which the rest of the workflows' checks do not, and an integration test because it starts the
 * bin/stacks JVM (as {@link dev.platform.karpenter.synth.OutputDirectoryUnderKillsIT} does).
 */
@IntegrationTest
class WorkflowMatrixIT {
    @TempDir
    Path temp;

    /**
     * The step that lists the clusters, run as each workflow runs it (bash, GITHUB_OUTPUT) on the real synthesized
     * output of 20 clusters: one matrix entry per cluster, in the manifest's order.
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
            Path project = Files.createDirectories(temp.resolve("project"));
            Path bin = Files.createDirectories(project.resolve("bin"));
            // bin/stacks as the workflow starts it (its JVM options too), on the classes under test (the jar is built
            // after the tests).
            Files.writeString(bin.resolve("stacks"), """
                    #!/usr/bin/env bash
                    exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$TEST_CLASSPATH" \\
                      dev.platform.karpenter.terraform.StacksCommand "$@"
                    """);
            Files.setPosixFilePermissions(bin.resolve("stacks"), PosixFilePermissions.fromString("rwxr-xr-x"));
            // The three workflows list the clusters with this same step
            // (WorkflowsTest.assertListsClustersWithoutCredentials).
            JsonNode step = WorkflowsTest.stepWithId(
                    WorkflowsTest.read("pull-request.yml").path("jobs").path("clusters"), "list");
            Path output = project.resolve("github-output");
            int exit = WorkflowsTest.bash(
                    step.path("run").asText(),
                    project,
                    Map.of(
                            "GITHUB_OUTPUT", output.toString(),
                            "KARPENTER_OUTDIR", twenty.dir().toString(),
                            "TEST_CLASSPATH", System.getProperty("java.class.path")));
            assertThat(exit).isZero();
            List<String> lines = Files.readAllLines(output);
            assertThat(lines).hasSize(1).allMatch(line -> line.startsWith("clusters=["));
            JsonNode matrix = WorkflowsTest.YAML.readTree(lines.get(0).substring("clusters=".length()));
            assertThat(matrix).hasSize(20);
            assertThat(Json.texts(matrix)).containsExactlyElementsOf(names);
        } finally {
            twenty.afterAll(null);
        }
    }
}
