package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.testing.IntegrationEnvironment;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A property of the whole app: any text a user writes in a free-form place (a spec's userData, annotations and tags,
 * controller_values) reaches Terraform as plain text. Generated texts full of template syntax ({@code ${}, {@code
 * %{}, {@code $${}, cdktf's own token markers), quotes, backslashes, line breaks and non-ASCII are written into
 * tfvars as a user would write them, read and validated as the app reads them, and synthesized, for the newest
 * release and the seed's generation. Then:
 *
 * <ul>
 *   <li>no stack holds a template expression beyond those the same app holds with harmless text in the same places
 *       (the project's references), and the two spellings the escape itself writes;
 *   <li>Terraform evaluates every string that carries them (Helm values of both charts, the nodepools output)
 *       back to documents holding exactly the user's text, as does each text quoted for an expression.
 * </ul>
 */
@IntegrationTest
class TerraformStringsIT {
    /** The escape's own spellings of cdktf's markers: the only expressions a user's text turns into. */
    private static final Set<String> ESCAPE_EXPRESSIONS = Set.of("${\"$\"}", "${\"{\"}");

    /** Texts that each break a naive escape, and fragments joined at random into more: hostile-strings.json. */
    private static final JsonNode TEXTS = texts();

    private static final List<String> FIXED = strings("fixed");
    private static final List<String> FRAGMENTS = strings("fragments");

    private static final ObjectMapper JSON = Json.mapper();

    @TempDir
    Path dir;

    private static JsonNode texts() {
        try (InputStream in = TerraformStringsIT.class.getResourceAsStream("hostile-strings.json")) {
            return Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> strings(String field) {
        List<String> strings = new ArrayList<>();
        TEXTS.path(field).forEach(text -> strings.add(text.asText()));
        return List.copyOf(strings);
    }

    @Test
    void everyFreeFormTextReachesTerraformAsTheUserWroteIt() throws Exception {
        List<String> texts = new ArrayList<>(FIXED);
        Random random = new Random(31);
        for (int i = 0; i < 40; i++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(8);
            for (int p = 0; p < parts; p++) {
                text.append(FRAGMENTS.get(random.nextInt(FRAGMENTS.size())));
            }
            texts.add(text.toString());
        }
        List<String> harmless =
                IntStream.range(0, texts.size()).mapToObj(i -> "plain" + i).toList();

        Synthesized hostile = synthesize(texts);
        Synthesized plain = synthesize(harmless);

        // 1. No expression a user's text made: every stack holds the expressions of the harmless app, no others.
        for (String stack : stackNames()) {
            Set<String> expected = new TreeSet<>(expressions(plain.stack(stack)));
            expected.addAll(ESCAPE_EXPRESSIONS);
            assertThat(expressions(hostile.stack(stack))).as(stack).isSubsetOf(expected);
        }

        // 2. Terraform yields each carried document with the user's exact text in it.
        Map<String, String> outputs = new LinkedHashMap<>();
        for (String cluster : List.of("newest", "seed")) {
            JsonNode pools = hostile.stack(cluster + "-nodepools");
            outputs.put(
                    cluster + "_pool_values",
                    pools.at("/resource/helm_release/pools/values/0").asText());
            outputs.put(
                    cluster + "_manifests",
                    pools.at("/output/manifests_yaml/value").asText());
            outputs.put(
                    cluster + "_controller_values",
                    hostile.stack(cluster + "-karpenter")
                            .at("/resource/helm_release/karpenter/values/0")
                            .asText());
        }
        for (int i = 0; i < texts.size(); i++) {
            outputs.put("quoted_" + i, "${" + TerraformStrings.quoted(texts.get(i)) + "}");
        }
        JsonNode evaluated = evaluate(outputs);

        for (String cluster : List.of("newest", "seed")) {
            boolean seed = cluster.equals("seed");
            List<JsonNode> objects = new ArrayList<>();
            Json.yaml(evaluated.at("/" + cluster + "_pool_values/value").asText())
                    .path("manifests")
                    .forEach(objects::add);
            List<JsonNode> documents = Json.yamlDocuments(
                    evaluated.at("/" + cluster + "_manifests/value").asText());
            for (List<JsonNode> rendered : List.of(objects, documents)) {
                JsonNode pool = kind(rendered, seed ? "Provisioner" : "NodePool");
                JsonNode nodeClass = kind(rendered, seed ? "AWSNodeTemplate" : "EC2NodeClass");
                JsonNode annotations =
                        seed ? pool.at("/spec/annotations") : pool.at("/spec/template/metadata/annotations");
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(annotations.path("example.com/a" + i).asText())
                            .as(cluster + " annotation " + i)
                            .isEqualTo(texts.get(i));
                    assertThat(nodeClass.at("/spec/tags").path("t" + i).asText())
                            .as(cluster + " tag " + i)
                            .isEqualTo(texts.get(i));
                    assertThat(nodeClass
                                    .at("/spec/tags")
                                    .path(tagKey(i, texts.get(i)))
                                    .asText())
                            .as(cluster + " tag key " + i)
                            .isEqualTo("k" + i);
                }
                assertThat(nodeClass.at("/spec/userData").asText()).isEqualTo(String.join("", texts));
            }
            JsonNode values = Json.yaml(
                    evaluated.at("/" + cluster + "_controller_values/value").asText());
            for (int i = 0; i < texts.size(); i++) {
                assertThat(values.at("/podAnnotations").path("a" + i).asText())
                        .as(cluster + " value " + i)
                        .isEqualTo(texts.get(i));
                assertThat(values.at("/podAnnotations")
                                .path(tagKey(i, texts.get(i)))
                                .asText())
                        .as(cluster + " value key " + i)
                        .isEqualTo("k" + i);
            }
        }
        for (int i = 0; i < texts.size(); i++) {
            assertThat(evaluated.at("/quoted_" + i + "/value").asText())
                    .as("quoted " + i)
                    .isEqualTo(texts.get(i));
        }
    }

    /** Two clusters, newest and seed generation, with {@code texts} in every free-form place. */
    private static Synthesized synthesize(List<String> texts) {
        ClusterConfig newest = TestConfigs.configFor("newest", "us-west-2", TestConfigs.V1, places(texts, false));
        ClusterConfig seed = TestConfigs.configFor("seed", "us-west-2", "v0.31.5", places(texts, true));
        SpecCheck.requireValid(newest);
        SpecCheck.requireValid(seed);
        return Synthesized.of(newest, seed);
    }

    private static String[] places(List<String> texts, boolean seed) {
        String annotations = map(texts, i -> "\"example.com/a" + i + "\"", TerraformStringsIT::hcl);
        String tags = map(texts, i -> "t" + i, TerraformStringsIT::hcl) + ", "
                + byIndex(texts, i -> hcl(tagKey(i, texts.get(i))), i -> "\"k" + i + "\"");
        String pool = seed
                ? "node_pool_spec = { annotations = { " + annotations + " } }"
                : "node_pool_spec = { template = { metadata = { annotations = { " + annotations + " } } } }";
        String nodeClass =
                "node_class_spec = { userData = " + hcl(String.join("", texts)) + ", tags = { " + tags + " } }";
        String values = "controller_values = { podAnnotations = { "
                + map(texts, i -> "a" + i, TerraformStringsIT::hcl) + ", "
                + byIndex(texts, i -> hcl(tagKey(i, texts.get(i))), i -> "\"k" + i + "\"") + " } }";
        return new String[] {pool, nodeClass, values};
    }

    private static String map(List<String> texts, Function<Integer, String> key, Function<String, String> value) {
        return IntStream.range(0, texts.size())
                .mapToObj(i -> key.apply(i) + " = " + value.apply(texts.get(i)))
                .collect(Collectors.joining(", "));
    }

    private static String byIndex(
            List<String> texts, Function<Integer, String> key, java.util.function.IntFunction<String> value) {
        return IntStream.range(0, texts.size())
                .mapToObj(i -> key.apply(i) + " = " + value.apply(i))
                .collect(Collectors.joining(", "));
    }

    /** A text as a tag key of its own: EC2 takes any characters but at most 128 of them, and no "aws:" start. */
    private static String tagKey(int index, String text) {
        String key = "k" + index + " " + text;
        return key.codePointCount(0, key.length()) <= 128 ? key : key.substring(0, key.offsetByCodePoints(0, 128));
    }

    /** The text as a tfvars string, as a user writes it: HCL's escapes, and $${ and %%{ for a literal ${ and %{. */
    private static String hcl(String text) {
        return ConfigException.quoteWhole(text).replace("${", "$${").replace("%{", "%%{");
    }

    private static List<String> stackNames() {
        List<String> names = new ArrayList<>();
        for (String cluster : List.of("newest", "seed")) {
            for (String concern : List.of("iam", "interruption", "karpenter", "nodepools")) {
                names.add(cluster + "-" + concern);
            }
        }
        return names;
    }

    private static JsonNode kind(List<JsonNode> objects, String kind) {
        return objects.stream()
                .filter(o -> o.path("kind").asText().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + objects));
    }

    /** Every template expression Terraform would evaluate in the stack's strings, keys included. */
    private static Set<String> expressions(JsonNode node) {
        Set<String> found = new TreeSet<>();
        collect(node, found);
        return found;
    }

    private static void collect(JsonNode node, Set<String> found) {
        if (node.isTextual()) {
            found.addAll(TemplateScanner.expressions(node.asText()));
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                found.addAll(TemplateScanner.expressions(field.getKey()));
                collect(field.getValue(), found);
            }
        } else if (node.isArray()) {
            node.forEach(item -> collect(item, found));
        }
    }

    /**
     * Terraform's outputs of the strings, each project reference (an expression that is not the escape's own)
     * replaced by "REF": with no resources here, only the user's text can be evaluated.
     */
    private JsonNode evaluate(Map<String, String> strings) throws IOException, InterruptedException {
        ObjectNode outputs = JSON.createObjectNode();
        strings.forEach((name, text) -> outputs.putObject(name)
                .put(
                        "value",
                        name.startsWith("quoted_")
                                ? text
                                : TemplateScanner.replaceReferences(text, ESCAPE_EXPRESSIONS)));
        Files.writeString(dir.resolve("main.tf.json"), JSON.writeValueAsString(Map.of("output", outputs)));
        terraform("init", "-input=false");
        terraform("apply", "-auto-approve", "-input=false");
        return JSON.readTree(terraform("output", "-json"));
    }

    private String terraform(String... args) throws IOException, InterruptedException {
        IntegrationEnvironment.requireTools();
        List<String> command = new ArrayList<>(List.of("terraform"));
        command.addAll(List.of(args));
        Path errors = Files.createTempFile(dir, "terraform", ".err");
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(errors.toFile())
                .start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(out + Files.readString(errors)).isZero();
        return out;
    }
}
