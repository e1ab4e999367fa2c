package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.nodepools.manifest.Rendered.find;
import static dev.platform.karpenter.testing.Json.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The requirements of each pool, in both generations: upstream's instance shape by default, then what the settings
 * change. The manifests are those of V1Alpha5ManifestsTest and V1ManifestsTest.
 */
class PoolRequirementsTest {
    private static final String PROVISIONER = "/spec/requirements";
    private static final String NODE_POOL = "/spec/template/spec/requirements";

    /** Upstream's instance shape: what a pool requires when the settings say nothing. */
    private static final List<String> UPSTREAM_DEFAULT = List.of(
            "karpenter.sh/capacity-type In [spot, on-demand]",
            "kubernetes.io/arch In [amd64]",
            "kubernetes.io/os In [linux]",
            "karpenter.k8s.aws/instance-category In [c, m, r]",
            "karpenter.k8s.aws/instance-generation Gt [2]");

    static List<Arguments> pools() {
        return List.of(
                provisioner("0.x default", V1Alpha5ManifestsTest.DEFAULTS, "default", UPSTREAM_DEFAULT),
                provisioner(
                        "0.x custom",
                        V1Alpha5ManifestsTest.CUSTOM,
                        "default",
                        List.of(
                                "karpenter.sh/capacity-type In [on-demand]",
                                "kubernetes.io/arch In [amd64]",
                                "kubernetes.io/os In [linux]",
                                "karpenter.k8s.aws/instance-generation Gt [5]",
                                "karpenter.k8s.aws/instance-size NotIn [metal]",
                                "example.com/spare DoesNotExist []")),
                nodePool("1.x default", V1ManifestsTest.DEFAULTS, "default", UPSTREAM_DEFAULT),
                nodePool(
                        "1.x custom",
                        V1ManifestsTest.CUSTOM,
                        "default",
                        List.of(
                                "karpenter.sh/capacity-type In [spot]",
                                "kubernetes.io/arch In [arm64]",
                                "kubernetes.io/os In [linux]",
                                "karpenter.k8s.aws/instance-category In [m]",
                                "karpenter.k8s.aws/instance-generation Gt [6]",
                                "karpenter.k8s.aws/instance-cpu Lt [33]")),
                // Extra pools take their own capacity types and inherit the rest.
                provisioner(
                        "0.x extra pool",
                        V1Alpha5ManifestsTest.CUSTOM,
                        "batch",
                        List.of(
                                "karpenter.sh/capacity-type In [spot]",
                                "kubernetes.io/arch In [amd64]",
                                "kubernetes.io/os In [linux]",
                                "karpenter.k8s.aws/instance-generation Gt [5]",
                                "karpenter.k8s.aws/instance-size NotIn [metal]",
                                "example.com/spare DoesNotExist []")),
                nodePool(
                        "1.x extra pool",
                        V1ManifestsTest.CUSTOM,
                        "on-demand",
                        List.of(
                                "karpenter.sh/capacity-type In [on-demand]",
                                "kubernetes.io/arch In [arm64]",
                                "kubernetes.io/os In [linux]",
                                "karpenter.k8s.aws/instance-category In [m]",
                                "karpenter.k8s.aws/instance-generation Gt [6]",
                                "karpenter.k8s.aws/instance-cpu Lt [33]")));
    }

    private static Arguments provisioner(
            String caseName, List<JsonNode> manifests, String pool, List<String> expected) {
        return Arguments.of(caseName, manifests, "Provisioner", pool, PROVISIONER, expected);
    }

    private static Arguments nodePool(String caseName, List<JsonNode> manifests, String pool, List<String> expected) {
        return Arguments.of(caseName, manifests, "NodePool", pool, NODE_POOL, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void requirementsAreUpstreamsShapeChangedByTheSettings(
            String caseName,
            List<JsonNode> manifests,
            String kind,
            String pool,
            String pointer,
            List<String> expected) {
        JsonNode requirements = find(manifests, kind, pool).at(pointer);

        assertThat(requirements(requirements)).containsExactlyElementsOf(expected);
        for (JsonNode requirement : requirements) {
            boolean valueless = List.of("Exists", "DoesNotExist")
                    .contains(requirement.path("operator").asText());
            assertThat(requirement.has("values")).as("values of " + requirement).isEqualTo(!valueless);
            // Kubernetes rejects a number in a list of strings, so Gt/Lt values stay strings.
            requirement
                    .path("values")
                    .forEach(value -> assertThat(value.isTextual())
                            .as(requirement.toString())
                            .isTrue());
        }
    }

    static List<String> requirements(JsonNode requirements) {
        List<String> result = new ArrayList<>();
        requirements.forEach(r ->
                result.add(r.path("key").asText() + " " + r.path("operator").asText() + " " + texts(r.path("values"))));
        return result;
    }
}
