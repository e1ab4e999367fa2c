package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parts of {@link Synthesis} that need no kernel and no process: the configurations' way to a worker, the shares
 * and the process count. {@link SynthesisWorkersIT} starts workers.
 */
@KernelOnlyThroughSynthesized
class SynthesisWorkerTest {
    @Test
    void configurationsTravelToWorkersUnchanged() throws IOException {
        List<ClusterConfig> configs = List.of(
                TestConfigs.configFor("alpha", "us-west-2", TestConfigs.V0),
                TestConfigs.config(
                        TestConfigs.V1,
                        "tags = { Team = \"platform\" }",
                        "controller_tolerations = [{ key = \"dedicated\", operator = \"Equal\", value = \"karpenter\", effect = \"NoSchedule\" }]",
                        "controller_affinity = { nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms = [{ matchExpressions = [{ key = \"a\", operator = \"In\", values = [\"b\"] }] }] } } }"),
                // Pools under their own names, with metadata and what was written for them.
                TestConfigs.configFor(
                        "gamma",
                        "us-west-2",
                        TestConfigs.V1,
                        "default_node_pool = false",
                        "cpu_limit = 20",
                        "node_classes = [{ name = \"win\", ami_family = \"Windows2022\", metadata = { labels = { os ="
                                + " \"windows\" } } }]",
                        "node_pools = [{ name = \"default\", node_class = \"win\", metadata = { annotations = {"
                                + " \"kubernetes.io/description\" = \"Windows\", \"example.com/b\" = \"2\" } } }]"));
        java.io.ByteArrayOutputStream json = new java.io.ByteArrayOutputStream();

        SynthesisWorker.send(configs, json);

        assertThat(SynthesisWorker.read(new java.io.ByteArrayInputStream(json.toByteArray())))
                .isEqualTo(configs);
    }

    @Test
    void shardsAreContiguousAndTheFirstIsLargerByAWorkersStart() {
        List<Integer> fifty = java.util.stream.IntStream.range(0, 50).boxed().toList();

        List<List<Integer>> two = Synthesis.shards(fifty, 2);
        assertThat(two).extracting(List::size).containsExactly(27, 23);
        assertThat(two.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(fifty);
        assertThat(Synthesis.shards(fifty, 4)).extracting(List::size).containsExactly(16, 11, 11, 12);
        assertThat(Synthesis.shards(List.of(1, 2, 3, 4, 5), 3))
                .extracting(List::size)
                .containsExactly(3, 1, 1);
        assertThat(Synthesis.shards(List.of(1, 2, 3), 9))
                .extracting(List::size)
                .as("one item each at most")
                .containsExactly(1, 1, 1);
        assertThat(Synthesis.shards(fifty, 1)).containsExactly(fifty);
    }

    @Test
    void processCountComesFromTheVariableOrFromClustersAndProcessors() {
        assertThat(Synthesis.processes(50, Map.of(Synthesis.PROCESSES_VARIABLE, "3")))
                .isEqualTo(3);
        assertThat(Synthesis.processes(2, Map.of(Synthesis.PROCESSES_VARIABLE, "8")))
                .as("one per cluster at most")
                .isEqualTo(2);
        assertThat(Synthesis.processes(Synthesis.CLUSTERS_PER_PROCESS - 1, Map.of()))
                .isEqualTo(1);
        assertThat(Synthesis.processes(100 * Synthesis.CLUSTERS_PER_PROCESS, Map.of()))
                .as("one fewer than the processors: a worker needs a core to spare")
                .isEqualTo(Math.max(1, Math.min(100, Runtime.getRuntime().availableProcessors() - 1)));
        for (String bad : List.of("0", "-1", "two", "1.5")) {
            assertThatThrownBy(() -> Synthesis.processes(50, Map.of(Synthesis.PROCESSES_VARIABLE, bad)))
                    .isInstanceOf(BadEnvironment.class)
                    .hasMessage("environment variable " + Synthesis.PROCESSES_VARIABLE
                            + " must be a whole number of processes, 1 or more, got \"" + bad + "\"");
        }
        assertThatThrownBy(() -> Synthesis.processes(50, Map.of(Synthesis.RENAMED_PROCESSES_VARIABLE, "2")))
                .isInstanceOf(BadEnvironment.class)
                .hasMessageContaining("was renamed " + Synthesis.PROCESSES_VARIABLE);
    }
}
