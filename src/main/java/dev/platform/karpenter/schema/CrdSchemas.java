package dev.platform.karpenter.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonNodePath;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.cel.runtime.CelEvaluationException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Custom resources checked as the API server checks them on create, against a set of CustomResourceDefinitions:
 * <ol>
 *   <li>the kind and version must be served by one of the CRDs ("no matches for kind" otherwise);</li>
 *   <li>the schema's {@code default}s applied, as the server does before validating;</li>
 *   <li>the full {@code openAPIV3Schema} of that version, made structural: an object with {@code properties}
 *       accepts no other field unless {@code x-kubernetes-preserve-unknown-fields}; int-or-string, nullable and
 *       {@code x-kubernetes-list-type: set} honoured. The root {@code metadata} is not checked here: the server checks
 *       it as the typed ObjectMeta, not through the CRD;</li>
 *   <li>every {@code x-kubernetes-validations} rule on a present value, with CEL ({@link KubernetesCel}).
 *       Transition rules (those reading {@code oldSelf}) do not run on create, as on the server; a failed rule
 *       reports its {@code messageExpression}, else its {@code message}.</li>
 * </ol>
 * Thread-safe; the JSON schema of a kind is compiled on its first use and kept, and CEL programs are cached by rule.
 */
public final class CrdSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7);
    private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final int VALUE_LENGTH = 80;

    /** The openAPIV3Schema of each served "group/version Kind". */
    private final Map<String, JsonNode> schemas;

    private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    private CrdSchemas(Map<String, JsonNode> schemas) {
        this.schemas = schemas;
    }

    /** The schemas of the CustomResourceDefinitions among {@code objects} (other objects are ignored). */
    public static CrdSchemas of(Collection<? extends JsonNode> objects) {
        Map<String, JsonNode> schemas = new LinkedHashMap<>();
        for (JsonNode crd : objects) {
            if (!crd.path("kind").asText().equals("CustomResourceDefinition")) {
                continue;
            }
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
        return new CrdSchemas(Map.copyOf(schemas));
    }

    /** The served "group/version Kind"s, sorted. */
    public Set<String> servedKinds() {
        return new TreeSet<>(schemas.keySet());
    }

    /** Whether one of the CRDs serves {@code kind} in {@code apiVersion}. */
    public boolean serves(String apiVersion, String kind) {
        return schemas.containsKey(key(apiVersion, kind));
    }

    /**
     * The openAPIV3Schema served for {@code apiVersion} and {@code kind}.
     *
     * @throws IllegalArgumentException when no CRD serves them
     */
    public JsonNode schema(String apiVersion, String kind) {
        JsonNode schema = schemas.get(key(apiVersion, kind));
        if (schema == null) {
            throw new IllegalArgumentException(noMatch(apiVersion, kind));
        }
        return schema;
    }

    /** {@code object} as the server stores it: a copy with its {@code apiVersion} and {@code kind}, defaults applied. */
    public ObjectNode withDefaults(String apiVersion, String kind, JsonNode object) {
        ObjectNode defaulted = object.isObject() ? object.deepCopy() : JSON.createObjectNode();
        defaulted.put("apiVersion", apiVersion);
        defaulted.put("kind", kind);
        applyDefaults(schema(apiVersion, kind), defaulted);
        return defaulted;
    }

    /** What the server would answer to creating {@code object}, whose own apiVersion and kind say what it is. */
    public List<Violation> validate(JsonNode object) {
        return validate(object.path("apiVersion").asText(), object.path("kind").asText(), object);
    }

    /**
     * What the server would answer to creating {@code object} as {@code kind} in {@code apiVersion}: every problem,
     * schema violations first (by path), then failed rules (by path); empty when it would be accepted.
     */
    public List<Violation> validate(String apiVersion, String kind, JsonNode object) {
        String key = key(apiVersion, kind);
        JsonNode schema = schemas.get(key);
        if (schema == null) {
            return List.of(new Violation("", noMatch(apiVersion, kind)));
        }
        if (!object.isObject()) {
            return List.of(new Violation("", "a " + kind + " is an object, not " + render(object)));
        }
        ObjectNode defaulted = withDefaults(apiVersion, kind, object);
        List<Violation> violations = new ArrayList<>();
        compiled(key, schema).validate(defaulted).stream()
                .map(message -> violation(schema, message))
                .sorted(Comparator.comparing(Violation::path).thenComparing(Violation::message))
                .distinct()
                .forEach(violations::add);
        evaluateRules(schema, defaulted, List.of(), violations);
        return List.copyOf(violations);
    }

    /** Compiles every served kind's JSON schema and CEL rules now, rather than on first use (for measurements). */
    public void compileAll() {
        schemas.forEach((key, schema) -> {
            compiled(key, schema);
            compileRules(schema);
        });
    }

    private JsonSchema compiled(String key, JsonNode schema) {
        return compiled.computeIfAbsent(key, k -> FACTORY.getSchema(structural(schema, true)));
    }

    private static void compileRules(JsonNode schema) {
        for (JsonNode validation : schema.path("x-kubernetes-validations")) {
            String rule = validation.path("rule").asText();
            if (!OLD_SELF.matcher(rule).find()) {
                KubernetesCel.compile(rule);
                if (validation.has("messageExpression")) {
                    KubernetesCel.compile(validation.path("messageExpression").asText());
                }
            }
        }
        schema.path("properties").forEach(CrdSchemas::compileRules);
        for (String child : List.of("items", "additionalProperties")) {
            if (schema.path(child).isObject()) {
                compileRules(schema.path(child));
            }
        }
    }

    private String noMatch(String apiVersion, String kind) {
        return "no matches for kind \"" + kind + "\" in version \"" + apiVersion + "\" (served: "
                + String.join(", ", servedKinds()) + ")";
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
        boolean nullable = openApi.path("nullable").asBoolean();
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
                    // An int-or-string's anyOf of integer and string is the type below, which reads better when
                    // refused than two alternatives.
                    if (!(intOrString && name.equals("anyOf"))) {
                        ArrayNode all = out.putArray(name);
                        value.forEach(s -> all.add(structural(s, false)));
                    }
                }
                case "format" -> {
                    if (value.asText().equals("date-time")) {
                        out.set(name, value);
                    }
                }
                case "type" ->
                    out.set(name, nullable ? JSON.createArrayNode().add(value).add("null") : value);
                case "x-kubernetes-list-type" -> {
                    if (value.asText().equals("set")) {
                        out.put("uniqueItems", true);
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
            ArrayNode types = out.putArray("type").add("integer").add("string");
            if (nullable) {
                types.add("null");
            }
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

    /** A schema violation as a user reads it: the field's path, its value and what the schema allows. */
    private static Violation violation(JsonNode root, ValidationMessage message) {
        List<Object> at = elements(message.getInstanceLocation());
        JsonNode value = message.getInstanceNode();
        JsonNode schema = schemaAt(root, at);
        String property = message.getProperty();
        return switch (message.getType()) {
            case "additionalProperties" -> {
                List<String> allowed = new ArrayList<>();
                schema.path("properties").fieldNames().forEachRemaining(allowed::add);
                yield new Violation(
                        path(at, property),
                        "unknown field"
                                + Suggestions.nearest(property, allowed)
                                        .map(n -> " (did you mean \"" + n + "\"?)")
                                        .orElse("")
                                + "; allowed: " + String.join(", ", allowed));
            }
            case "required" -> new Violation(path(at, property), "is required");
            case "enum" -> new Violation(path(at), render(value) + " is not one of " + list(schema.path("enum")));
            case "pattern" ->
                new Violation(
                        path(at),
                        render(value) + " does not match "
                                + schema.path("pattern").asText());
            case "type" ->
                new Violation(path(at), render(value) + " is " + typeOf(value) + "; expected " + expected(schema));
            case "maxLength" ->
                new Violation(path(at), render(value) + " is longer than " + schema.path("maxLength") + " characters");
            case "minLength" ->
                new Violation(path(at), render(value) + " is shorter than " + schema.path("minLength") + " characters");
            case "maximum" ->
                new Violation(path(at), render(value) + " is above the maximum " + schema.path("maximum"));
            case "minimum" ->
                new Violation(path(at), render(value) + " is below the minimum " + schema.path("minimum"));
            case "maxItems" ->
                new Violation(path(at), value.size() + " items; at most " + schema.path("maxItems") + " are allowed");
            case "minItems" ->
                new Violation(path(at), value.size() + " items; at least " + schema.path("minItems") + " are required");
            case "maxProperties" ->
                new Violation(
                        path(at), value.size() + " entries; at most " + schema.path("maxProperties") + " are allowed");
            case "minProperties" ->
                new Violation(
                        path(at),
                        value.size() + " entries; at least " + schema.path("minProperties") + " are required");
            case "uniqueItems" -> new Violation(path(at), render(value) + " holds the same item twice");
            case "format" ->
                new Violation(
                        path(at),
                        render(value) + " is not a " + schema.path("format").asText());
            default -> new Violation(path(at), withoutLocation(message));
        };
    }

    /** The networknt message without the instance location it starts with. */
    private static String withoutLocation(ValidationMessage message) {
        String text = message.getMessage();
        String location = message.getInstanceLocation().toString();
        return text.startsWith(location + ": ") ? text.substring(location.length() + 2) : text;
    }

    private static List<Object> elements(JsonNodePath location) {
        List<Object> elements = new ArrayList<>();
        for (int i = 0; i < location.getNameCount(); i++) {
            elements.add(location.getElement(i));
        }
        return elements;
    }

    /** The OpenAPI schema of the value at {@code path}, or a missing node where it is not plainly nested. */
    private static JsonNode schemaAt(JsonNode root, List<Object> path) {
        JsonNode schema = root;
        for (Object element : path) {
            if (element instanceof Integer) {
                schema = schema.path("items");
            } else {
                JsonNode property = schema.path("properties").path((String) element);
                schema = property.isMissingNode() ? schema.path("additionalProperties") : property;
            }
        }
        return schema;
    }

    private static String path(List<Object> elements, String child) {
        List<Object> all = new ArrayList<>(elements);
        if (child != null) {
            all.add(child);
        }
        return path(all);
    }

    /** {@code spec.budgets[0].nodes}; a key that is no plain name in brackets: {@code labels["example.com/team"]}. */
    static String path(List<Object> elements) {
        StringBuilder path = new StringBuilder();
        for (Object element : elements) {
            if (element instanceof Integer index) {
                path.append('[').append(index).append(']');
            } else if (PLAIN_NAME.matcher((String) element).matches()) {
                path.append(path.isEmpty() ? "" : ".").append(element);
            } else {
                path.append('[')
                        .append(JSON.getNodeFactory().textNode((String) element))
                        .append(']');
            }
        }
        return path.toString();
    }

    private static String list(JsonNode values) {
        List<String> rendered = new ArrayList<>();
        values.forEach(v -> rendered.add(render(v)));
        return String.join(", ", rendered);
    }

    private static String typeOf(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> value.isIntegralNumber() ? "an integer" : "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "a list";
            case OBJECT -> "a map";
            default -> "null";
        };
    }

    private static String expected(JsonNode schema) {
        if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
            return "an integer or a string";
        }
        String type = schema.path("type").asText();
        return switch (type) {
            case "string" -> "a string";
            case "integer" -> "an integer";
            case "number" -> "a number";
            case "boolean" -> "a boolean";
            case "array" -> "a list";
            case "object" -> "a map";
            default -> type;
        };
    }

    /** A value as it appears in a message: JSON, shortened when long. */
    static String render(JsonNode value) {
        String text = value == null ? "null" : value.toString();
        return text.length() <= VALUE_LENGTH ? text : text.substring(0, VALUE_LENGTH - 3) + "...";
    }

    private static void evaluateRules(JsonNode schema, JsonNode value, List<Object> at, List<Violation> violations) {
        for (JsonNode validation : schema.path("x-kubernetes-validations")) {
            String rule = validation.path("rule").asText();
            if (OLD_SELF.matcher(rule).find()) {
                // A transition rule compares with the stored object, which a create does not have. optionalOldSelf
                // rules would run with oldSelf absent; no shipped CRD has one (ShippedSchemasTest checks).
                continue;
            }
            Object self = toCel(value);
            try {
                if (!Boolean.TRUE.equals(KubernetesCel.evaluate(rule, self))) {
                    violations.add(new Violation(path(at), message(validation, rule, self) + got(value)));
                }
            } catch (CelEvaluationException e) {
                // The server refuses a value its rule cannot evaluate (int("two")); the rule's message says why.
                violations.add(new Violation(path(at), message(validation, rule, self) + got(value)));
            }
        }
        if (value.isObject()) {
            schema.path("properties").fields().forEachRemaining(p -> {
                if (value.has(p.getKey()) && !value.get(p.getKey()).isNull()) {
                    evaluateRules(p.getValue(), value.get(p.getKey()), child(at, p.getKey()), violations);
                }
            });
            JsonNode additional = schema.path("additionalProperties");
            if (additional.isObject()) {
                value.fields()
                        .forEachRemaining(
                                e -> evaluateRules(additional, e.getValue(), child(at, e.getKey()), violations));
            }
        } else if (value.isArray() && schema.path("items").isObject()) {
            for (int i = 0; i < value.size(); i++) {
                evaluateRules(schema.path("items"), value.get(i), child(at, i), violations);
            }
        }
    }

    /** The refused value, when it is short enough to quote (a rule on a whole object names its fields itself). */
    private static String got(JsonNode value) {
        return value.isValueNode() ? " (got " + render(value) + ")" : "";
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

    private static List<Object> child(List<Object> path, Object element) {
        List<Object> child = new ArrayList<>(path);
        child.add(element);
        return child;
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
