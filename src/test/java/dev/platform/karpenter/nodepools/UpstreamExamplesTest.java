package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.schema.ReleaseSchemas;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Mirror;
import dev.platform.karpenter.testing.NeedsUpstreamMirror;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.testing.kubernetes.UpstreamCharts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Upstream's own example pools and node classes (examples/v1 of the newest release, read from the upstream mirror) as
 * a corpus: each file becomes tfvars the way the README says (every pool an entry of node_pools, every
 * node class one of node_classes, names and metadata kept, default_node_pool = false), the app is synthesized, and
 * the objects in the nodepools stack must be upstream's: the same objects and no other, equal but for the fields the
 * project owns (nodeClassRef from node_class; role, here upstream's role given as iam_role_arn), the discovery
 * selectors it fills in, and the additions the README documents (the typed defaults a spec leaves out).
 */
@KernelOnlyThroughSynthesized
@NeedsUpstreamMirror
class UpstreamExamplesTest {
    /** The tag whose examples/v1 is the corpus: the newest the tests render. */
    static final String CORPUS_TAG = UpstreamCharts.NEWEST;
    /** The release the corpus was taken from. */
    static final KarpenterRelease CORPUS_RELEASE = KarpenterRelease.of(CORPUS_TAG.replaceFirst("^v", ""));

    static final String DISCOVERY = "karpenter.sh/discovery";
    /**
     * What a rendered object may hold beyond upstream's, each a typed default its spec leaves out (README
     * "Configuring anything upstream defines"): a pool's cpu_limit, memory_limit, consolidation, consolidate_after
     * and expire_after.
     */
    static final Set<String> POOL_ADDITIONS = Set.of(
            "/spec/limits/cpu",
            "/spec/limits/memory",
            "/spec/disruption/consolidationPolicy",
            "/spec/disruption/consolidateAfter",
            "/spec/template/spec/expireAfter");
    /** ... and a Bottlerocket node class's two volumes where its spec writes none. */
    static final Set<String> BOTTLEROCKET_ADDITIONS = Set.of("/spec/blockDeviceMappings");

    private static final ObjectMapper JSON = Json.mapper();

    record Example(String file, String cluster, List<JsonNode> upstream, ClusterConfig config) {
        @Override
        public String toString() {
            return file;
        }
    }

    /** Empty without a mirror: the class is then skipped (NeedsUpstreamMirror). */
    static final List<Example> EXAMPLES = Mirror.available() ? examples() : List.of();

    @RegisterExtension
    static final Synthesized APP =
            Synthesized.withMirror(() -> EXAMPLES.stream().map(Example::config).toArray(ClusterConfig[]::new));

    static Stream<Example> corpus() {
        return EXAMPLES.stream();
    }

    @Test
    void theCorpusIsUpstreamsTwentyTwoExamples() {
        assertThat(EXAMPLES).hasSize(22);
        assertThat(EXAMPLES)
                .extracting(Example::file)
                .contains("windows-2025.yaml", "custom-family.yaml", "multiple-arch.yaml", "general-purpose.yaml");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void rendersUpstreamsObjectsAndNoOther(Example example) {
        List<JsonNode> rendered =
                Json.yamlDocuments(Synthesized.output(APP.stack(example.cluster() + "-nodepools"), "manifests_yaml"));

        assertThat(identities(rendered)).containsExactlyInAnyOrderElementsOf(identities(example.upstream()));
        for (JsonNode upstream : example.upstream()) {
            JsonNode object = find(rendered, upstream);
            ObjectNode expected = upstream.deepCopy();
            if (upstream.path("kind").asText().equals("NodePool")) {
                // Owned: the reference is made from node_class, which names the class. (windows-custom-userdata.yaml
                // spells the group "karpenter.k8s.aws/v1"; the project writes the group.)
                JsonNode reference = object.at("/spec/template/spec/nodeClassRef");
                assertThat(reference.path("name")).isEqualTo(upstream.at("/spec/template/spec/nodeClassRef/name"));
                ((ObjectNode) expected.at("/spec/template/spec")).set("nodeClassRef", reference);
            }
            if (upstream.path("kind").asText().equals("EC2NodeClass")) {
                // Owned: the project's node role (here the IAM stack's reference).
                ((ObjectNode) expected.path("spec"))
                        .set("role", object.path("spec").path("role"));
            }
            JsonNode actual = withoutAdditions(object, expected, additionsFor(object));
            assertThat(actual).as(example.file() + " " + identity(upstream)).isEqualTo(expected);
        }
    }

    /** The same objects pass the release's CRDs: schema and every CEL rule, as the API server would check them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void passesTheReleasesCrds(Example example) {
        SpecCheck.requireValid(example.config());
        ReleaseSchemas schemas = ReleaseSchemas.of(CORPUS_RELEASE);
        for (JsonNode object :
                Json.yamlDocuments(Synthesized.output(APP.stack(example.cluster() + "-nodepools"), "manifests_yaml"))) {
            assertThat(schemas.validateSpec(
                            object.path("apiVersion").asText(),
                            object.path("kind").asText(),
                            object.at("/metadata/name").asText(),
                            object.path("spec")))
                    .as(example.file() + " " + identity(object))
                    .isEmpty();
        }
    }

    private static Set<String> additionsFor(JsonNode object) {
        if (object.path("kind").asText().equals("NodePool")) {
            return POOL_ADDITIONS;
        }
        return object.at("/spec/amiSelectorTerms/0/alias").asText().startsWith("bottlerocket@")
                        && !object.at("/spec/amiFamily").isTextual()
                ? BOTTLEROCKET_ADDITIONS
                : Set.of();
    }

    /** {@code object} without the fields at {@code allowed} paths that {@code expected} does not have. */
    private static JsonNode withoutAdditions(JsonNode object, JsonNode expected, Set<String> allowed) {
        ObjectNode copy = object.deepCopy();
        prune(copy, expected, "", allowed);
        return copy;
    }

    private static void prune(ObjectNode node, JsonNode expected, String path, Set<String> allowed) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String at = path + "/" + field.getKey();
            JsonNode upstream = expected.path(field.getKey());
            if (upstream.isMissingNode()) {
                if (allowed.contains(at)
                        || (field.getValue().isObject()
                                && allowed.stream().anyMatch(addition -> addition.startsWith(at + "/"))
                                && onlyAllowed(field.getValue(), at, allowed))) {
                    fields.remove();
                }
            } else if (field.getValue() instanceof ObjectNode inner) {
                prune(inner, upstream, at, allowed);
            }
        }
    }

    private static boolean onlyAllowed(JsonNode node, String path, Set<String> allowed) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            if (!allowed.contains(path + "/" + names.next())) {
                return false;
            }
        }
        return true;
    }

    private static List<Example> examples() {
        try (Stream<Path> files = Files.list(Mirror.require().file(CORPUS_TAG, "examples/v1"))) {
            List<Example> examples = new ArrayList<>();
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                String name = file.getFileName().toString();
                String cluster = name.replaceFirst("\\.yaml$", "");
                List<JsonNode> upstream =
                        Json.yamlDocuments(Files.readString(file).replace("${CLUSTER_NAME}", cluster));
                ClusterConfig config = TestConfigs.configFor(
                        cluster, "us-west-2", CORPUS_RELEASE.chartVersion(), tfvars(upstream, cluster));
                examples.add(new Example(name, cluster, upstream, config));
            }
            return List.copyOf(examples);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The file as the README says to write it: each NodePool an entry of node_pools (its nodeClassRef as
     * node_class), each EC2NodeClass one of node_classes (its role left to the project, its discovery selectors
     * too), names and metadata as they are.
     */
    static String[] tfvars(List<JsonNode> upstream, String cluster) {
        List<String> pools = new ArrayList<>();
        List<String> nodeClasses = new ArrayList<>();
        for (JsonNode object : upstream) {
            ObjectNode spec = object.path("spec").deepCopy();
            StringBuilder entry = new StringBuilder("{ name = " + hcl(object.at("/metadata/name")));
            JsonNode metadata = object.path("metadata").deepCopy();
            ((ObjectNode) metadata).remove("name");
            if (!metadata.isEmpty()) {
                entry.append(", metadata = ").append(hcl(metadata));
            }
            if (object.path("kind").asText().equals("NodePool")) {
                ObjectNode template = (ObjectNode) spec.path("template").path("spec");
                entry.append(", node_class = ")
                        .append(hcl(template.path("nodeClassRef").path("name")));
                template.remove("nodeClassRef");
                pools.add(
                        entry.append(", spec = ").append(hcl(spec)).append(" }").toString());
            } else {
                spec.remove("role");
                JsonNode discovery = JSON.valueToTree(List.of(Map.of("tags", Map.of(DISCOVERY, cluster))));
                for (String selector : List.of("subnetSelectorTerms", "securityGroupSelectorTerms")) {
                    if (spec.path(selector).equals(discovery)) {
                        spec.remove(selector);
                    }
                }
                nodeClasses.add(
                        entry.append(", spec = ").append(hcl(spec)).append(" }").toString());
            }
        }
        return new String[] {
            // upstream's node role, given by ARN: the objects name it literally
            "iam_role_arn = \"arn:aws:iam::123456789012:role/KarpenterNodeRole-" + cluster + "\"",
            "default_node_pool = false",
            "node_classes = [" + String.join(",\n", nodeClasses) + "]",
            "node_pools = [" + String.join(",\n", pools) + "]"
        };
    }

    /** A value in HCL: JSON's string escapes are HCL's, and "${" is written "$${" (HCL would interpolate it). */
    private static String hcl(JsonNode value) {
        if (value.isObject()) {
            List<String> fields = new ArrayList<>();
            value.fields()
                    .forEachRemaining(field -> fields.add(quoted(field.getKey()) + " = " + hcl(field.getValue())));
            return "{ " + String.join(", ", fields) + " }";
        }
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(hcl(item)));
            return "[" + String.join(", ", items) + "]";
        }
        return value.isTextual() ? quoted(value.asText()) : value.toString();
    }

    private static String quoted(String text) {
        return JSON.valueToTree(text).toString().replace("${", "$${").replace("%{", "%%{");
    }

    private static JsonNode find(List<JsonNode> documents, JsonNode like) {
        return documents.stream()
                .filter(document -> identity(document).equals(identity(like)))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> identities(List<JsonNode> documents) {
        return documents.stream().map(UpstreamExamplesTest::identity).toList();
    }

    private static String identity(JsonNode document) {
        return document.path("apiVersion").asText() + " "
                + document.path("kind").asText() + " "
                + document.at("/metadata/name").asText();
    }
}
