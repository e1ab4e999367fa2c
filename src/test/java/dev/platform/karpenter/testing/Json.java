package dev.platform.karpenter.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The tests' one way to read JSON and YAML (synthesized Terraform JSON, policy documents, Helm values, manifests). */
public final class Json {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    private Json() {}

    /** The shared JSON mapper, for a test that writes JSON or reads into its own types. */
    public static ObjectMapper mapper() {
        return JSON;
    }

    /** The shared YAML mapper, likewise. */
    public static YAMLMapper yamlMapper() {
        return YAML;
    }

    public static JsonNode parse(String json) {
        return readTree(JSON, json);
    }

    public static JsonNode read(Path file) {
        return parse(text(file));
    }

    /** One YAML document. */
    public static JsonNode yaml(String yaml) {
        return readTree(YAML, yaml);
    }

    public static JsonNode readYaml(Path file) {
        return yaml(text(file));
    }

    /** Every document of a multi-document YAML text, as {@code kubectl apply -f} reads it. */
    public static List<JsonNode> yamlDocuments(String yaml) {
        try {
            List<JsonNode> documents = new ArrayList<>();
            YAML.readerFor(JsonNode.class).readValues(yaml).forEachRemaining(node -> documents.add((JsonNode) node));
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Any value as a tree, e.g. an expected map to compare with a parsed document. */
    public static JsonNode tree(Object value) {
        return JSON.valueToTree(value);
    }

    /** The values of an array as text; a single value (IAM's Action or Resource may be one) as a list of one. */
    public static List<String> texts(JsonNode arrayOrValue) {
        List<String> values = new ArrayList<>();
        if (arrayOrValue.isArray()) {
            arrayOrValue.forEach(value -> values.add(value.asText()));
        } else if (!arrayOrValue.isMissingNode()) {
            values.add(arrayOrValue.asText());
        }
        return values;
    }

    /** Shown by {@link #at} for a pointer that names nothing. */
    public static final String MISSING = "(missing)";

    /**
     * The values at JSON pointers ("/spec/limits/cpu"; "~1" stands for a "/" inside a key), as text: a whole object
     * or array as its JSON, nothing as {@link #MISSING}. One assertion then states every field a test expects.
     */
    public static List<String> at(JsonNode node, String... pointers) {
        List<String> values = new ArrayList<>();
        for (String pointer : pointers) {
            JsonNode value = node.at(pointer);
            values.add(value.isMissingNode() ? MISSING : value.isContainerNode() ? value.toString() : value.asText());
        }
        return values;
    }

    public static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode readTree(ObjectMapper mapper, String text) {
        try {
            return mapper.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
