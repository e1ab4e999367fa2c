package dev.platform.karpenter.testing.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.schema.CrdSchemas;
import dev.platform.karpenter.schema.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Custom resources checked as the API server checks them on create, for tests: the app's own validator
 * ({@link CrdSchemas}: served kinds, defaults, the full openAPIV3Schema and CEL rules) plus {@code metadata} through
 * the typed ObjectMeta ({@link CoreObjects}), which the app leaves to the server.
 */
public final class CrdValidator {
    private final CrdSchemas schemas;

    private CrdValidator(CrdSchemas schemas) {
        this.schemas = schemas;
    }

    /** A validator for the CustomResourceDefinitions among {@code objects} (other objects are ignored). */
    public static CrdValidator of(List<JsonNode> objects) {
        return new CrdValidator(CrdSchemas.of(objects));
    }

    /** The served "group/version Kind"s. */
    public Set<String> servedKinds() {
        return schemas.servedKinds();
    }

    /** The openAPIV3Schema a CRD of this release serves for {@code apiVersion} and {@code kind}. */
    public JsonNode schema(String apiVersion, String kind) {
        return schemas.schema(apiVersion, kind);
    }

    /** Whether a CRD of this release serves the object's apiVersion and kind. */
    public boolean serves(JsonNode object) {
        return schemas.serves(
                object.path("apiVersion").asText(), object.path("kind").asText());
    }

    /** What the API server would answer to creating {@code object}: one line per problem, empty when accepted. */
    public List<String> errors(JsonNode object) {
        List<String> errors = new ArrayList<>();
        if (serves(object)) {
            errors.addAll(CoreObjects.metadataErrors(object.path("metadata")));
        }
        schemas.validate(object).stream().map(Violation::toString).forEach(errors::add);
        return errors;
    }

    /** Fails with every problem when the API server would reject {@code object}. */
    public void assertAccepted(JsonNode object) {
        List<String> errors = errors(object);
        if (!errors.isEmpty()) {
            throw new AssertionError(
                    HelmRender.describe(object) + " would be rejected:\n  " + String.join("\n  ", errors));
        }
    }
}
