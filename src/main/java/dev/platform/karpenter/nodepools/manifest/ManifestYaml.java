package dev.platform.karpenter.nodepools.manifest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.platform.karpenter.config.TerraformDocument;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Renders manifests with Jackson YAML, numeric-looking strings quoted. Fields of the typed records that are unset or
 * empty are left out; a spec tree (a map, see {@link #tree}) is written as it is, so an empty list a user wrote
 * (e.g. no disruption budgets) stays one.
 */
public final class ManifestYaml {
    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // "2" in a Gt requirement must stay a string: Kubernetes rejects a number in a list of strings.
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();
    private static final ObjectMapper YAML = new ObjectMapper(FACTORY)
            .setDefaultPropertyInclusion(
                    JsonInclude.Value.construct(JsonInclude.Include.NON_EMPTY, JsonInclude.Include.ALWAYS));
    /**
     * Typed records to trees: unset and empty fields left out, at every depth. Entries of a map with an empty value
     * stay: a label or tag may be "" (NON_EMPTY alone would drop them from labels and tags).
     */
    private static final ObjectMapper TREES = new ObjectMapper(FACTORY)
            .setDefaultPropertyInclusion(
                    JsonInclude.Value.construct(JsonInclude.Include.NON_EMPTY, JsonInclude.Include.NON_NULL));

    private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {};

    private ManifestYaml() {}

    /**
     * A typed record as the tree of maps, lists and scalars its YAML would be (unset and empty fields left out, field
     * order kept), for specs that upstream fields are merged into.
     */
    public static Map<String, Object> tree(Object record) {
        return TREES.convertValue(record, TREE);
    }

    /** The objects as one multi-document YAML file, as {@code kubectl apply -f} reads it. */
    public static String documents(List<?> objects) {
        StringWriter out = new StringWriter();
        try (SequenceWriter writer = YAML.writer().writeValues(out)) {
            writer.writeAll(objects);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** One YAML document of any value, e.g. Helm values or Chart.yaml. */
    public static String document(Object value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Helm values holding the objects, for the chart template that writes each one out with toYaml, as a Terraform
     * string: {@code document} holds the references the objects were rendered with; all else is literal.
     */
    public static String helmValues(List<?> objects, TerraformDocument document) {
        return document.toTerraform(document(Map.of("manifests", objects)));
    }

    /** {@link #documents} as a Terraform string (an output's value), likewise. */
    public static String documents(List<?> objects, TerraformDocument document) {
        return document.toTerraform(documents(objects));
    }
}
