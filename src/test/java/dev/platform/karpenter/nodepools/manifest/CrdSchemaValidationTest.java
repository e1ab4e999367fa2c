package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.platform.karpenter.config.ClusterConfig;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rendered manifests against the OpenAPI schemas of their CRDs (Karpenter v0.30.0 and v1.14.1), kept trimmed in
 * src/test/resources/crd-schemas: structure, types, enums, patterns and bounds are checked; CEL rules
 * (x-kubernetes-validations) are not, as no JSON-schema library evaluates them. Unknown fields fail.
 */
class CrdSchemaValidationTest {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);

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
        for (JsonNode document : documents) {
            assertThat(errors(document)).as(document.path("kind").asText() + " " + document.path("metadata").path("name").asText())
                    .isEmpty();
        }
    }

    @Test
    void theSchemasRejectWhatKarpenterWouldReject() {
        List<JsonNode> v1 = Rendered.of(config(V1));
        ObjectNode nodePool = (ObjectNode) Rendered.find(v1, "NodePool", "default").deepCopy();
        ((ObjectNode) nodePool.at("/spec/template/spec/requirements/0")).put("operator", "Like");
        assertThat(errors(nodePool)).anySatisfy(m -> assertThat(m.getInstanceLocation().toString()).contains("operator"));

        ObjectNode misspelled = (ObjectNode) Rendered.find(v1, "NodePool", "default").deepCopy();
        ((ObjectNode) misspelled.at("/spec/disruption")).set("consolidationPolicies", misspelled.at("/spec/disruption/consolidationPolicy"));
        assertThat(errors(misspelled)).isNotEmpty();

        ObjectNode oldApi = (ObjectNode) Rendered.find(v1, "EC2NodeClass", "default").deepCopy();
        oldApi.put("apiVersion", "karpenter.k8s.aws/v1beta1");
        assertThat(errors(oldApi, schema("karpenter.k8s.aws_v1_EC2NodeClass"))).isNotEmpty();

        ObjectNode provisioner = (ObjectNode) Rendered.find(Rendered.of(config(V0)), "Provisioner", "default").deepCopy();
        ((ObjectNode) provisioner.at("/spec/providerRef")).remove("name");
        assertThat(errors(provisioner)).isNotEmpty();
    }

    private static Set<ValidationMessage> errors(JsonNode document) {
        String apiVersion = document.path("apiVersion").asText();
        return errors(document, schema(apiVersion.replace('/', '_') + "_" + document.path("kind").asText()));
    }

    private static Set<ValidationMessage> errors(JsonNode document, JsonSchema schema) {
        return schema.validate(document);
    }

    private static JsonSchema schema(String name) {
        try (InputStream in = CrdSchemaValidationTest.class.getResourceAsStream("/crd-schemas/" + name + ".json")) {
            if (in == null) {
                throw new AssertionError("no CRD schema for " + name);
            }
            return FACTORY.getSchema(in);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
