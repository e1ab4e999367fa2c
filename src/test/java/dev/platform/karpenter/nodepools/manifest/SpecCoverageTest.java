package dev.platform.karpenter.nodepools.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.schema.ReleaseSchemas;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every leaf field of the release's pool and node-class CRD schemas, set through node_pool_spec or node_class_spec
 * alone, synthesizes (SpecCheck passes) and reaches the rendered object; the fields the project owns are refused.
 * For the newest release and the seed's 0.31 generation. The README states the newest release's count.
 */
@KernelOnlyThroughSynthesized
class SpecCoverageTest {
    private static final ObjectMapper JSON = Json.mapper();
    private static final List<String> OWNED =
            List.of("role", "instanceProfile", "template.spec.nodeClassRef", "providerRef", "provider");

    /** Values for fields whose schema or rules a plain sample does not satisfy, by path from the spec. */
    private static final Map<String, Object> SAMPLES = samples();

    /** Fields beside the one set that a rule across fields needs, by the set field's path (or its prefix). */
    private static final Map<String, Map<String, Object>> BESIDE = Map.of(
            "blockDeviceMappings[].ebs.",
                    Map.of("blockDeviceMappings", List.of(Map.of("ebs", Map.of("volumeSize", "300Gi")))),
            "blockDeviceMappings[].ebs.volumeInitializationRate",
                    Map.of(
                            "blockDeviceMappings",
                            List.of(Map.of("ebs", Map.of("snapshotID", "snap-0123456789abcdef0")))),
            "amiSelectorTerms[].owner", Map.of("amiSelectorTerms", List.of(Map.of("name", "my-ami"))),
            "capacityReservationSelectorTerms[].ownerID",
                    Map.of("capacityReservationSelectorTerms", List.of(Map.of("tags", Map.of("a", "b")))),
            "kubelet.evictionSoft",
                    Map.of("kubelet", Map.of("evictionSoftGracePeriod", Map.of("memory.available", "1m"))),
            "kubelet.evictionSoftGracePeriod",
                    Map.of("kubelet", Map.of("evictionSoft", Map.of("memory.available", "10%"))),
            "networkInterfaces[].",
                    Map.of(
                            "networkInterfaces",
                            List.of(Map.of("networkCardIndex", 0, "deviceIndex", 0, "interfaceType", "interface"))));

    /** Siblings a sample needs to be valid (a rule or a required field), by the sample's path. */
    private static final Map<String, Map<String, Object>> CONTEXT = Map.of(
            "replicas", nullLimits(),
            "amiSelectorTerms[].id", Map.of("amiFamily", "AL2023"),
            "amiSelectorTerms[].tags", Map.of("amiFamily", "AL2023"),
            "amiSelectorTerms[].name", Map.of("amiFamily", "AL2023"),
            "amiSelectorTerms[].owner", Map.of("amiFamily", "AL2023"),
            "amiSelectorTerms[].ssmParameter", Map.of("amiFamily", "AL2023"),
            "amiFamily", Map.of("amiSelectorTerms", List.of(Map.of("id", "ami-0123456789abcdef0"))));

    /** Fields an item of a list needs beside the one set (rules across them), by the list's path. */
    private static final Map<String, Map<String, Object>> ITEM = Map.of(
            "disruption.budgets[]", Map.of("nodes", "10%", "schedule", "0 9 * * mon-fri", "duration", "8h"),
            "template.spec.requirements[]", Map.of("key", "example.com/zone", "operator", "In", "values", List.of("a")),
            "requirements[]", Map.of("key", "example.com/zone", "operator", "In", "values", List.of("a")));

    /** Static pools (replicas) take a node limit only. */
    private static Map<String, Object> nullLimits() {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("limits", null);
        return context;
    }

    record Counted(String release, String kind, List<String> settable, List<String> owned) {}

    static Stream<String> releases() {
        return Stream.of(UpgradeSteps.newestRelease().chartVersion(), "v0.31.5");
    }

    @ParameterizedTest
    @MethodSource("releases")
    void everyFieldButTheOwnedOnesReachesTheRenderedObject(String version) {
        KarpenterRelease release = KarpenterRelease.of(version);
        GenerationManifests generation = NodePoolManifests.of(release.apiGeneration());
        ReleaseSchemas schemas = ReleaseSchemas.of(release);
        List<String> report = new ArrayList<>();
        for (boolean pool : List.of(true, false)) {
            KubernetesObject.Type type = pool ? generation.poolType() : generation.nodeClassType();
            JsonNode spec =
                    schemas.crds().schema(type.apiVersion(), type.kind()).at("/properties/spec");
            List<String> leaves = new ArrayList<>();
            leaves(spec, "", leaves);
            List<String> owned = leaves.stream().filter(SpecCoverageTest::owned).toList();
            List<String> failed = new ArrayList<>();
            for (String leaf : leaves) {
                if (owned.contains(leaf)) {
                    continue;
                }
                Object value = SAMPLES.containsKey(leaf) ? SAMPLES.get(leaf) : sample(schemaAt(spec, leaf));
                Map<String, Object> fragment = new LinkedHashMap<>();
                CONTEXT.getOrDefault(leaf, Map.of()).forEach((key, context) -> {
                    if (spec.path("properties").has(key)) {
                        fragment.put(key, context);
                    }
                });
                put(fragment, spec, "", List.of(leaf.split("\\.")), value);
                BESIDE.forEach((prefix, beside) -> {
                    if (leaf.equals(prefix) || prefix.endsWith(".") && leaf.startsWith(prefix)) {
                        besides(fragment, beside);
                    }
                });
                String setting = pool ? "node_pool_spec" : "node_class_spec";
                try {
                    ClusterConfig config = TestConfigs.config(version, setting + " = " + hcl(fragment));
                    SpecCheck.requireValid(config);
                    JsonNode rendered = Rendered.spec(config, type.kind(), "default");
                    JsonNode at = at(rendered, leaf);
                    if (!reached(at, JSON.valueToTree(value))) {
                        failed.add(leaf + " rendered as " + at);
                    }
                } catch (ConfigException e) {
                    failed.add(leaf + ": " + e.getMessage());
                }
            }
            assertThat(failed).as(type.kind() + " " + version).isEmpty();
            for (String leaf : owned) {
                Map<String, Object> fragment = new LinkedHashMap<>();
                put(fragment, spec, "", List.of(leaf.split("\\.")), sample(schemaAt(spec, leaf)));
                String setting = pool ? "node_pool_spec" : "node_class_spec";
                org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                                SpecCheck.requireValid(TestConfigs.config(version, setting + " = " + hcl(fragment))))
                        .as(leaf)
                        .hasMessageContaining(" is set ");
            }
            report.add(type.kind() + " " + (leaves.size() - owned.size()) + " of " + leaves.size());
        }
        System.out.println("settable fields, Karpenter " + version + ": " + String.join(", ", report));
    }

    /** Adds what {@code beside} holds and {@code fragment} does not, lists item by item. */
    @SuppressWarnings("unchecked")
    private static void besides(Map<String, Object> fragment, Map<String, Object> beside) {
        beside.forEach((key, value) -> {
            Object existing = fragment.get(key);
            if (existing == null) {
                fragment.put(key, value);
            } else if (existing instanceof Map<?, ?> map && value instanceof Map<?, ?> more) {
                Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) map);
                besides(merged, (Map<String, Object>) more);
                fragment.put(key, merged);
            } else if (existing instanceof List<?> list && value instanceof List<?> more) {
                Map<String, Object> first = new LinkedHashMap<>((Map<String, Object>) list.get(0));
                besides(first, (Map<String, Object>) more.get(0));
                fragment.put(key, List.of(first));
            }
        });
    }

    /** The value as written, or for a map its entries among the rendered ones (maps merge). */
    private static boolean reached(JsonNode rendered, JsonNode written) {
        if (written.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> entries = written.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> entry = entries.next();
                if (!rendered.path(entry.getKey()).equals(entry.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return rendered.equals(written);
    }

    private static boolean owned(String leaf) {
        return OWNED.stream().anyMatch(o -> leaf.equals(o) || leaf.startsWith(o + "."));
    }

    /** Leaf paths: "disruption.budgets[].nodes"; a map or a list of scalars is a leaf. */
    private static void leaves(JsonNode schema, String path, List<String> out) {
        if (schema.path("type").asText().equals("object") && schema.has("properties")) {
            Iterator<Map.Entry<String, JsonNode>> fields =
                    schema.path("properties").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                leaves(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey(), out);
            }
        } else if (schema.path("type").asText().equals("array")
                && schema.path("items").has("properties")) {
            leaves(schema.path("items"), path + "[]", out);
        } else {
            out.add(path);
        }
    }

    private static JsonNode schemaAt(JsonNode spec, String leaf) {
        JsonNode schema = spec;
        for (String part : leaf.split("\\.")) {
            boolean list = part.endsWith("[]");
            schema = schema.path("properties").path(list ? part.substring(0, part.length() - 2) : part);
            if (list) {
                schema = schema.path("items");
            }
        }
        return schema;
    }

    private static Object sample(JsonNode schema) {
        if (schema.has("enum")) {
            return JSON.convertValue(schema.path("enum").get(0), Object.class);
        }
        return switch (schema.path("type").asText()) {
            case "integer" -> 1;
            case "boolean" -> true;
            case "array" -> List.of("x");
            case "object" -> Map.of("example.com/key", "value");
            default -> schema.path("x-kubernetes-int-or-string").asBoolean() ? "1" : "x";
        };
    }

    /** Sets {@code value} at {@code path}, lists as one item holding the required fields of its kind. */
    @SuppressWarnings("unchecked")
    private static void put(
            Map<String, Object> target, JsonNode schema, String prefix, List<String> path, Object value) {
        String part = path.get(0);
        String here = prefix.isEmpty() ? part : prefix + "." + part;
        boolean list = part.endsWith("[]");
        String name = list ? part.substring(0, part.length() - 2) : part;
        JsonNode child = schema.path("properties").path(name);
        if (path.size() == 1) {
            target.put(name, value);
            return;
        }
        if (list) {
            Map<String, Object> item = new LinkedHashMap<>(ITEM.getOrDefault(here, Map.of()));
            for (JsonNode required : child.path("items").path("required")) {
                String key = required.asText();
                String sibling = here + "." + key;
                item.put(
                        key,
                        SAMPLES.containsKey(sibling)
                                ? SAMPLES.get(sibling)
                                : sample(child.at("/items/properties/" + key)));
            }
            put(item, child.path("items"), here, path.subList(1, path.size()), value);
            target.put(name, List.of(item));
        } else {
            Map<String, Object> inner = (Map<String, Object>) target.computeIfAbsent(name, k -> new LinkedHashMap<>());
            put(inner, child, here, path.subList(1, path.size()), value);
        }
    }

    private static JsonNode at(JsonNode rendered, String leaf) {
        JsonNode node = rendered;
        for (String part : leaf.split("\\.")) {
            boolean list = part.endsWith("[]");
            node = node.path(list ? part.substring(0, part.length() - 2) : part);
            if (list) {
                node = node.path(0);
            }
        }
        return node;
    }

    /** A value as tfvars literal text, every key quoted. */
    private static String hcl(Object value) {
        if (value instanceof Map<?, ?> map) {
            List<String> fields = new ArrayList<>();
            map.forEach((k, v) -> fields.add(JSON.valueToTree(k.toString()) + " = " + hcl(v)));
            return "{ " + String.join(", ", fields) + " }";
        }
        if (value instanceof List<?> list) {
            return "["
                    + String.join(", ", list.stream().map(SpecCoverageTest::hcl).toList()) + "]";
        }
        return JSON.valueToTree(value).toString();
    }

    private static Map<String, Object> samples() {
        try (InputStream in = SpecCoverageTest.class.getResourceAsStream("spec-samples.yaml")) {
            return Json.yamlMapper().readValue(in, new TypeReference<Map<String, Object>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
