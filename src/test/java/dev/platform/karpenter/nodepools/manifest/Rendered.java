package dev.platform.karpenter.nodepools.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.testing.Json;
import java.util.List;

/** Manifests rendered to YAML and parsed back, so tests assert what kubectl and Helm would read. */
final class Rendered {
    static final String ROLE = "KarpenterNodeRole-demo";

    private Rendered() {}

    static List<JsonNode> of(ClusterConfig config) {
        return Json.yamlDocuments(
                ManifestYaml.documents(RenderedPools.of(config, ROLE).objects()));
    }

    /** The single document of a kind and name. */
    static JsonNode find(List<JsonNode> documents, String kind, String name) {
        List<JsonNode> matches = documents.stream()
                .filter(d -> d.path("kind").asText().equals(kind)
                        && d.path("metadata").path("name").asText().equals(name))
                .toList();
        if (matches.size() != 1) {
            throw new AssertionError(
                    "expected one " + kind + " " + name + ", found " + matches.size() + " in " + documents);
        }
        return matches.get(0);
    }

    /** The spec of the single document of a kind and name. */
    static JsonNode spec(List<JsonNode> documents, String kind, String name) {
        return find(documents, kind, name).path("spec");
    }

    /** The spec of the single document of a kind and name that {@code config} renders. */
    static JsonNode spec(ClusterConfig config, String kind, String name) {
        return spec(of(config), kind, name);
    }

    /** "apiVersion kind name" of each document, to state what a rendering holds in one line. */
    static List<String> identities(List<JsonNode> documents) {
        return documents.stream()
                .map(d -> d.path("apiVersion").asText() + " " + d.path("kind").asText() + " "
                        + d.path("metadata").path("name").asText())
                .toList();
    }
}
