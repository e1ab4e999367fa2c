package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several clusters from one directory of tfvars: eight stacks, their own state, the right deploy order. */
class MultiClusterTest {
    private static final ObjectMapper JSON = Json.mapper();

    @TempDir
    static Path project;

    private static JsonNode manifest;

    @BeforeAll
    static void synthesizeTwoClusters() throws IOException {
        Path clusters = Files.createDirectories(project.resolve("clusters"));
        Files.writeString(
                clusters.resolve("staging.tfvars"), TestConfigs.tfvarsFor("staging", "us-west-2", TestConfigs.V0));
        Files.writeString(
                clusters.resolve("production.tfvars"),
                TestConfigs.tfvarsFor("production", "us-west-2", TestConfigs.V1));
        MainRuns.succeed(project, "clusters", "cdktf.out", Map.of("KARPENTER_STATE_BUCKET", "tf-state"));
        manifest = JSON.readTree(project.resolve("cdktf.out/manifest.json").toFile());
    }

    @Test
    void synthesizesFourStacksPerCluster() {
        List<String> names = new ArrayList<>();
        manifest.path("stacks").fieldNames().forEachRemaining(names::add);

        assertThat(names)
                .containsExactlyInAnyOrder(
                        "staging-iam",
                        "staging-interruption",
                        "staging-karpenter",
                        "staging-nodepools",
                        "production-iam",
                        "production-interruption",
                        "production-karpenter",
                        "production-nodepools");
    }

    @Test
    void everyStackHasItsOwnStateKey() throws IOException {
        Set<String> keys = new HashSet<>();
        for (JsonNode stack : manifest.path("stacks")) {
            JsonNode json = JSON.readTree(project.resolve("cdktf.out")
                    .resolve(stack.path("synthesizedStackPath").asText())
                    .toFile());
            keys.add(json.path("terraform")
                    .path("backend")
                    .path("s3")
                    .path("key")
                    .asText());
        }
        assertThat(keys).hasSize(8).allMatch(k -> k.startsWith("karpenter/") && k.endsWith(".tfstate"));
    }

    @Test
    void eachClustersStacksDependOnlyOnTheirOwnProducers() {
        for (String cluster : List.of("staging", "production")) {
            assertThat(dependencies(cluster + "-iam")).isEmpty();
            assertThat(dependencies(cluster + "-interruption")).isEmpty();
            assertThat(dependencies(cluster + "-karpenter"))
                    .containsExactlyInAnyOrder(cluster + "-iam", cluster + "-interruption");
            assertThat(dependencies(cluster + "-nodepools"))
                    .contains(cluster + "-karpenter")
                    .allMatch(d -> d.startsWith(cluster + "-"));
        }
    }

    private static List<String> dependencies(String stack) {
        List<String> values = new ArrayList<>();
        manifest.path("stacks").path(stack).path("dependencies").forEach(v -> values.add(v.asText()));
        return values;
    }
}
