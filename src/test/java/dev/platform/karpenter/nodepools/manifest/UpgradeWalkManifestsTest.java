package dev.platform.karpenter.nodepools.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.CrdValidator;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every deploy of the way from the seed's v0.30.0 to the newest release (README, "Upgrading from the seed's v0.30"): the pools
 * and node classes it declares against the real CRDs of that very release, schema, defaults and CEL rules, with
 * the seed's pool settings (consolidation, 30-day expiry) and a second pool.
 */
@NeedsUpstreamMirror
@KernelOnlyThroughSynthesized
class UpgradeWalkManifestsTest {
    private static final String EXTRA_POOL =
            "node_pools = [{ name = \"batch\", capacity_types = [\"on-demand\"], cpu_limit = 4 }]";

    static Stream<Arguments> steps() {
        return Stream.of(
                Arguments.of("v0.30.0", "v0.30.0", null, List.of("Provisioner", "Provisioner", "AWSNodeTemplate")),
                Arguments.of("v0.31.5", "v0.31.5", null, List.of("Provisioner", "Provisioner", "AWSNodeTemplate")),
                Arguments.of(
                        "v0.32.10",
                        "v0.32.10",
                        null,
                        List.of(
                                "Provisioner",
                                "Provisioner",
                                "AWSNodeTemplate",
                                "NodePool",
                                "NodePool",
                                "EC2NodeClass")),
                Arguments.of("v0.32.10", "v0.32.10", "v1alpha5", List.of("NodePool", "NodePool", "EC2NodeClass")),
                Arguments.of("0.37.8", "v0.37.8", "v1alpha5", List.of("NodePool", "NodePool", "EC2NodeClass")),
                Arguments.of("1.0.14", "v1.0.14", "v1alpha5", List.of("NodePool", "NodePool", "EC2NodeClass")),
                Arguments.of("1.0.14", "v1.0.14", "v1beta1", List.of("NodePool", "NodePool", "EC2NodeClass")),
                Arguments.of(
                        TestConfigs.V1,
                        UpstreamCharts.NEWEST,
                        "v1beta1",
                        List.of("NodePool", "NodePool", "EC2NodeClass")));
    }

    @ParameterizedTest(name = "{0} retired_api {2}: valid against the {1} CRDs")
    @MethodSource("steps")
    void everyStepDeclaresObjectsItsReleaseAccepts(
            String version, String chartTag, String retired, List<String> kinds) {
        ClusterConfig config = retired == null
                ? TestConfigs.config(version, EXTRA_POOL)
                : TestConfigs.config(version, EXTRA_POOL, "retired_api = \"" + retired + "\"");
        List<JsonNode> documents = Rendered.of(config);
        CrdValidator crds = UpstreamCharts.crdValidator(chartTag);

        assertThat(documents).extracting(d -> d.path("kind").asText()).containsExactlyElementsOf(kinds);
        for (JsonNode document : documents) {
            assertThat(crds.errors(document))
                    .as(document.path("apiVersion").asText() + " "
                            + document.path("kind").asText() + " "
                            + document.path("metadata").path("name").asText())
                    .isEmpty();
        }
        // at 1.0 the kept objects are the v1beta1 ones, through the conversion webhooks
        if (version.equals("1.0.14")) {
            assertThat(documents.get(0).path("apiVersion").asText())
                    .isEqualTo("v1beta1".equals(retired) ? "karpenter.sh/v1" : "karpenter.sh/v1beta1");
        }
    }
}
