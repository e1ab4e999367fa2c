package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.kubernetes.CrdValidator;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rendered manifests against the real CRDs of Karpenter v0.30.0 and v1.14.1 (their karpenter-crd charts, rendered
 * by Helm): the full openAPIV3Schema with unknown fields rejected, schema defaults, and every CEL rule
 * (x-kubernetes-validations), as the API server checks a create.
 */
class CrdSchemaValidationTest {
    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("0.x defaults", config(V0)),
                Arguments.of("0.x every setting", config(V0,
                        "ami_family = \"AL2\"", "capacity_types = [\"on-demand\"]", "architectures = [\"amd64\", \"arm64\"]",
                        "instance_categories = []", "cpu_limit = 8", "memory_limit = \"32Gi\"", "consolidation = false",
                        "ttl_seconds_after_empty = 30", "expire_after = \"Never\"", "node_labels = { team = \"platform\" }",
                        "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }, { key = \"gpu\", effect = \"NoExecute\" }]",
                        "node_requirements = [{ key = \"example.com/spare\", operator = \"Exists\" }]",
                        "node_pools = [{ name = \"batch\", cpu_limit = 4 }]")),
                Arguments.of("1.x defaults", config(V1)),
                Arguments.of("1.x every setting", config(V1,
                        "ami_family = \"AL2023\"", "discovery_tag_key = \"example.com/karpenter\"", "capacity_types = [\"spot\"]",
                        "instance_generation_min = 6", "cpu_limit = 8", "memory_limit = \"32Gi\"", "consolidation = false",
                        "consolidate_after = \"1h30m\"", "expire_after = \"Never\"", "node_labels = { team = \"platform\" }",
                        "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }]",
                        "node_requirements = [{ key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Lt\", values = [\"33\"] }]",
                        "node_pools = [{ name = \"on-demand\", capacity_types = [\"on-demand\"] }]")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void everyRenderedManifestMatchesItsCrdSchema(String caseName, ClusterConfig config) {
        List<JsonNode> documents = Rendered.of(config);

        assertThat(documents).isNotEmpty();
        CrdValidator crds = crds(config);
        for (JsonNode document : documents) {
            assertThat(crds.errors(document)).as(document.path("kind").asText() + " " + document.path("metadata").path("name").asText())
                    .isEmpty();
        }
    }

    @Test
    void theSchemasRejectWhatKarpenterWouldReject() {
        CrdValidator crds = UpstreamCharts.crdValidator("v1.14.1");
        List<JsonNode> v1 = Rendered.of(config(V1));
        ObjectNode nodePool = (ObjectNode) Rendered.find(v1, "NodePool", "default").deepCopy();
        ((ObjectNode) nodePool.at("/spec/template/spec/requirements/0")).put("operator", "Like");
        assertThat(crds.errors(nodePool)).anySatisfy(m -> assertThat(m).contains("operator"));

        ObjectNode misspelled = (ObjectNode) Rendered.find(v1, "NodePool", "default").deepCopy();
        ((ObjectNode) misspelled.at("/spec/disruption")).set("consolidationPolicies", misspelled.at("/spec/disruption/consolidationPolicy"));
        assertThat(crds.errors(misspelled)).anySatisfy(m -> assertThat(m).contains("consolidationPolicies"));

        ObjectNode oldApi = (ObjectNode) Rendered.find(v1, "EC2NodeClass", "default").deepCopy();
        oldApi.put("apiVersion", "karpenter.k8s.aws/v1beta1");
        assertThat(crds.errors(oldApi)).singleElement().asString().startsWith("no matches for kind");

        ObjectNode provisioner = (ObjectNode) Rendered.find(Rendered.of(config(V0)), "Provisioner", "default").deepCopy();
        ((ObjectNode) provisioner.at("/spec/providerRef")).remove("name");
        assertThat(UpstreamCharts.crdValidator("v0.30.0").errors(provisioner)).isNotEmpty();

        ObjectNode bothIdentities = (ObjectNode) Rendered.find(v1, "EC2NodeClass", "default").deepCopy();
        ((ObjectNode) bothIdentities.path("spec")).put("instanceProfile", "KarpenterNodeInstanceProfile-demo");
        assertThat(crds.errors(bothIdentities)).anySatisfy(m -> assertThat(m).contains("exactly one of ['role', 'instanceProfile']"));
    }

    /** The CRDs of the release the configuration names: the tag of the same chart version. */
    private static CrdValidator crds(ClusterConfig config) {
        return UpstreamCharts.crdValidator(config.release().isV1() ? "v1.14.1" : "v0.30.0");
    }
}
