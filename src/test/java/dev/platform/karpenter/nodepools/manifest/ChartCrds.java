package dev.platform.karpenter.nodepools.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI schemas of a release's real CRDs, read from the upstream chart copied unchanged into
 * src/test/resources/charts/<tag>/karpenter/crds. Objects with declared properties reject unknown fields, as the
 * API server prunes or rejects them. CEL rules (x-kubernetes-validations) are not evaluated here.
 */
final class ChartCrds {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);
    private static final Map<String, String> FILES = Map.of(
            "NodePool", "karpenter.sh_nodepools.yaml",
            "EC2NodeClass", "karpenter.k8s.aws_ec2nodeclasses.yaml",
            "Provisioner", "karpenter.sh_provisioners.yaml",
            "AWSNodeTemplate", "karpenter.k8s.aws_awsnodetemplates.yaml");

    private ChartCrds() {
    }

    /** Violations of {@code document} against its kind's CRD, at its apiVersion, in the chart of {@code tag}. */
    static Set<ValidationMessage> errors(String tag, JsonNode document) {
        return schema(tag, document.path("kind").asText(), document.path("apiVersion").asText()).validate(document);
    }

    static JsonSchema schema(String tag, String kind, String apiVersion) {
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String path = "/charts/" + tag + "/karpenter/crds/" + FILES.get(kind);
        try (InputStream in = ChartCrds.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new AssertionError("no CRD " + path);
            }
            JsonNode crd = YAML.readTree(in);
            for (JsonNode served : crd.path("spec").path("versions")) {
                if (served.path("name").asText().equals(version) && served.path("served").asBoolean()) {
                    ObjectNode schema = (ObjectNode) served.path("schema").path("openAPIV3Schema").deepCopy();
                    closeObjects(schema);
                    return FACTORY.getSchema(schema);
                }
            }
            throw new AssertionError(kind + " " + apiVersion + " is not served by the CRD of " + tag);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeObjects(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.has("properties") && !object.has("additionalProperties")
                    && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
                object.put("additionalProperties", false);
            }
            object.forEach(ChartCrds::closeObjects);
        } else if (node.isArray()) {
            node.forEach(ChartCrds::closeObjects);
        }
    }
}
