package dev.platform.karpenter.testing.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.cel.runtime.CelEvaluationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Custom resources checked as the API server checks them on create, against the CRDs of one release:
 * <ol>
 *   <li>the kind and version must be served by a CRD ("no matches for kind" otherwise);</li>
 *   <li>{@code metadata} through the typed ObjectMeta ({@link CoreObjects});</li>
 *   <li>the schema's {@code default}s applied, as the server does before validating;</li>
 *   <li>the full {@code openAPIV3Schema} of that version, made structural: an object with {@code properties}
 *       accepts no other field unless {@code x-kubernetes-preserve-unknown-fields}; int-or-string and nullable
 *       honoured;</li>
 *   <li>every {@code x-kubernetes-validations} rule on a present value, with CEL ({@link KubernetesCel}).
 *       Transition rules (those reading {@code oldSelf}) do not run on create, as on the server; a failed rule
 *       reports its {@code messageExpression}, else its {@code message}.</li>
 * </ol>
 */
public final class CrdValidator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);
    private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");

    /** The openAPIV3Schema of each served "group/version Kind". */
    private final Map<String, JsonNode> schemas;

    private final Map<String, JsonSchema> jsonSchemas = new ConcurrentHashMap<>();

    private CrdValidator(Map<String, JsonNode> schemas) {
        this.schemas = schemas;
    }

    /** A validator for the CustomResourceDefinitions among {@code objects} (other objects are ignored). */
    public static CrdValidator of(List<JsonNode> objects) {
        Map<String, JsonNode> schemas = new LinkedHashMap<>();
        for (JsonNode crd : HelmRender.ofKind(objects, "CustomResourceDefinition")) {
            String group = crd.at("/spec/group").asText();
            String kind = crd.at("/spec/names/kind").asText();
            for (JsonNode version : crd.at("/spec/versions")) {
                if (version.path("served").asBoolean()) {
                    schemas.put(
                            key(group + "/" + version.path("name").asText(), kind),
                            version.at("/schema/openAPIV3Schema"));
                }
            }
        }
        if (schemas.isEmpty()) {
            throw new IllegalArgumentException("no CustomResourceDefinition among " + objects.size() + " objects");
        }
        return new CrdValidator(schemas);
    }

    /** The served "group/version Kind"s. */
    public java.util.Set<String> servedKinds() {
        return new TreeSet<>(schemas.keySet());
    }

    /** The openAPIV3Schema a CRD of this release serves for {@code apiVersion} and {@code kind}. */
    public JsonNode schema(String apiVersion, String kind) {
        JsonNode schema = schemas.get(key(apiVersion, kind));
        if (schema == null) {
            throw new IllegalArgumentException("no CRD serves " + key(apiVersion, kind));
        }
        return schema;
    }

    /** Whether a CRD of this release serves the object's apiVersion and kind. */
    public boolean serves(JsonNode object) {
        return schemas.containsKey(
                key(object.path("apiVersion").asText(), object.path("kind").asText()));
    }

    /** What the API server would answer to creating {@code object}: one line per problem, empty when accepted. */
    public List<String> errors(JsonNode object) {
        String key = key(object.path("apiVersion").asText(), object.path("kind").asText());
        JsonNode schema = schemas.get(key);
        if (schema == null) {
            return List.of("no matches for kind \"" + object.path("kind").asText() + "\" in version \""
                    + object.path("apiVersion").asText() + "\" (served: " + servedKinds() + ")");
        }
        List<String> errors = new ArrayList<>(CoreObjects.metadataErrors(object.path("metadata")));
        ObjectNode defaulted = object.deepCopy();
        applyDefaults(schema, defaulted);
        JsonSchema jsonSchema = jsonSchemas.computeIfAbsent(key, k -> FACTORY.getSchema(structural(schema, true)));
        jsonSchema.validate(defaulted).stream()
                .map(ValidationMessage::getMessage)
                .sorted()
                .forEach(errors::add);
        evaluateRules(schema, defaulted, "", errors);
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

    private static String key(String apiVersion, String kind) {
        return apiVersion + " " + kind;
    }

    /**
     * The OpenAPI schema as a JSON schema with the API server's structural rules. At the root, {@code metadata} is
     * left to the typed ObjectMeta check, as the server validates it itself.
     */
    static JsonNode structural(JsonNode openApi, boolean root) {
        ObjectNode out = JSON.createObjectNode();
        boolean preserveUnknown =
                openApi.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        boolean intOrString = openApi.path("x-kubernetes-int-or-string").asBoolean();
        openApi.fields().forEachRemaining(field -> {
            String name = field.getKey();
            JsonNode value = field.getValue();
            switch (name) {
                case "properties" -> {
                    ObjectNode properties = out.putObject("properties");
                    value.fields()
                            .forEachRemaining(p -> properties.set(
                                    p.getKey(),
                                    root && p.getKey().equals("metadata")
                                            ? JSON.createObjectNode().put("type", "object")
                                            : structural(p.getValue(), false)));
                }
                case "items", "additionalProperties", "not" ->
                    out.set(name, value.isObject() ? structural(value, false) : value);
                case "allOf", "anyOf", "oneOf" -> {
                    ArrayNode all = out.putArray(name);
                    value.forEach(s -> all.add(structural(s, false)));
                }
                case "format" -> {
                    if (value.asText().equals("date-time")) {
                        out.set(name, value);
                    }
                }
                case "type" -> {
                    if (!intOrString) {
                        out.set(
                                name,
                                openApi.path("nullable").asBoolean()
                                        ? JSON.createArrayNode().add(value).add("null")
                                        : value);
                    }
                }
                case "description", "default", "example", "externalDocs", "nullable", "title" -> {}
                default -> {
                    if (!name.startsWith("x-kubernetes-")) {
                        out.set(name, value);
                    }
                }
            }
        });
        if (intOrString) {
            out.putArray("anyOf")
                    .add(JSON.createObjectNode().put("type", "integer"))
                    .add(JSON.createObjectNode().put("type", "string"));
        }
        boolean isObject = openApi.path("type").asText().equals("object");
        if (isObject && !preserveUnknown && !openApi.has("additionalProperties")) {
            out.put("additionalProperties", false);
        }
        return out;
    }

    /** Structural defaulting: an absent property with a {@code default} gets it, then its own content is defaulted. */
    static void applyDefaults(JsonNode schema, JsonNode value) {
        if (value instanceof ObjectNode object) {
            schema.path("properties").fields().forEachRemaining(p -> {
                if (!object.has(p.getKey()) && p.getValue().has("default")) {
                    object.set(p.getKey(), p.getValue().get("default").deepCopy());
                }
                if (object.has(p.getKey())) {
                    applyDefaults(p.getValue(), object.get(p.getKey()));
                }
            });
            JsonNode additional = schema.path("additionalProperties");
            if (additional.isObject()) {
                object.forEach(v -> applyDefaults(additional, v));
            }
        } else if (value instanceof ArrayNode array && schema.path("items").isObject()) {
            array.forEach(v -> applyDefaults(schema.path("items"), v));
        }
    }

    private static void evaluateRules(JsonNode schema, JsonNode value, String path, List<String> errors) {
        for (JsonNode validation : schema.path("x-kubernetes-validations")) {
            String rule = validation.path("rule").asText();
            if (OLD_SELF.matcher(rule).find()) {
                if (validation.path("optionalOldSelf").asBoolean()) {
                    throw new UnsupportedOperationException("optionalOldSelf is not supported yet: " + rule);
                }
                continue;
            }
            String where = path.isEmpty() ? "<root>" : path;
            try {
                Object self = toCel(value);
                if (!Boolean.TRUE.equals(KubernetesCel.evaluate(rule, self))) {
                    errors.add(where + ": Invalid value: " + message(validation, rule, self));
                }
            } catch (CelEvaluationException e) {
                errors.add(where + ": rule " + rule + " failed to evaluate: " + e.getMessage());
            }
        }
        if (value.isObject()) {
            schema.path("properties").fields().forEachRemaining(p -> {
                if (value.has(p.getKey()) && !value.get(p.getKey()).isNull()) {
                    evaluateRules(p.getValue(), value.get(p.getKey()), join(path, p.getKey()), errors);
                }
            });
            JsonNode additional = schema.path("additionalProperties");
            if (additional.isObject()) {
                value.fields()
                        .forEachRemaining(e -> evaluateRules(additional, e.getValue(), join(path, e.getKey()), errors));
            }
        } else if (value.isArray() && schema.path("items").isObject()) {
            for (int i = 0; i < value.size(); i++) {
                evaluateRules(schema.path("items"), value.get(i), path + "[" + i + "]", errors);
            }
        }
    }

    /** As the server words a failed rule: messageExpression's result, else message, else the rule itself. */
    private static String message(JsonNode validation, String rule, Object self) {
        String fallback = validation.path("message").asText("failed rule: " + rule);
        if (!validation.has("messageExpression")) {
            return fallback;
        }
        try {
            return KubernetesCel.evaluate(validation.path("messageExpression").asText(), self) instanceof String text
                            && !text.isBlank()
                    ? text
                    : fallback;
        } catch (CelEvaluationException e) {
            return fallback;
        }
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    /** A JSON value as CEL sees it: int for integers, double for other numbers, lists, maps; nulls dropped. */
    static Object toCel(JsonNode value) {
        if (value.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            value.fields().forEachRemaining(e -> {
                if (!e.getValue().isNull()) {
                    map.put(e.getKey(), toCel(e.getValue()));
                }
            });
            return map;
        }
        if (value.isArray()) {
            List<Object> list = new ArrayList<>();
            value.forEach(v -> list.add(toCel(v)));
            return list;
        }
        if (value.isIntegralNumber()) {
            return value.longValue();
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        return value.asText();
    }
}
