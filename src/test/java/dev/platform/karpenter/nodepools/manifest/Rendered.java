package dev.platform.karpenter.nodepools.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.platform.karpenter.config.ClusterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Manifests rendered to YAML and parsed back, so tests assert what kubectl and Helm would read. */
final class Rendered {
    static final String ROLE = "KarpenterNodeRole-demo";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Rendered() {
    }

    static List<JsonNode> of(ClusterConfig config) {
        return parse(ManifestYaml.documents(NodePoolManifests.forApis(config.apis()).render(config.nodePools(), ROLE)));
    }

    static List<JsonNode> parse(String yaml) {
        try {
            List<JsonNode> documents = new ArrayList<>();
            YAML.readerFor(JsonNode.class).readValues(yaml).forEachRemaining(node -> documents.add((JsonNode) node));
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The single document of a kind and name. */
    static JsonNode find(List<JsonNode> documents, String kind, String name) {
        List<JsonNode> matches = documents.stream()
                .filter(d -> d.path("kind").asText().equals(kind) && d.path("metadata").path("name").asText().equals(name))
                .toList();
        if (matches.size() != 1) {
            throw new AssertionError("expected one " + kind + " " + name + ", found " + matches.size() + " in " + documents);
        }
        return matches.get(0);
    }

    static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
