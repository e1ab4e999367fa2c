package dev.platform.karpenter;

import static dev.platform.karpenter.testing.Json.fieldNames;
import static dev.platform.karpenter.testing.Json.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What every stack of the app shares: names, provider pin, state backends, deploy order. */
@KernelOnlyThroughSynthesized
class KarpenterAppTest {
    private static final List<String> STACKS =
            List.of("demo-iam", "demo-interruption", "demo-karpenter", "demo-nodepools");

    @RegisterExtension
    static final Synthesized LOCAL = Synthesized.app()
            .cluster("demo", TestConfigs.V0, "tags = { Team = \"platform\" }")
            .synthesize();

    @RegisterExtension
    static final Synthesized S3 = Synthesized.app()
            .cluster(
                    "demo",
                    TestConfigs.V1,
                    "state_bucket = \"tf-state\"",
                    "state_region = \"eu-west-1\"",
                    "state_key_prefix = \"platform/karpenter\"")
            .synthesize();

    @Test
    void synthesizesOneStackPerConcern() {
        assertThat(fieldNames(LOCAL.manifest().path("stacks"))).containsExactlyInAnyOrderElementsOf(STACKS);
        for (String stack : STACKS) {
            assertThat(LOCAL.stackDir(stack).resolve("cdk.tf.json")).isRegularFile();
        }
    }

    @Test
    void pinsTheAwsProviderToTheMirroredVersion() {
        for (String stack : STACKS) {
            assertThat(requiredProviders(stack).path("aws"))
                    .as(stack)
                    .isEqualTo(Json.parse("{\"source\": \"hashicorp/aws\", \"version\": \"5.100.0\"}"));
        }
    }

    @Test
    void pinsTheHelmProviderWhereTheClusterIsReached() {
        for (String stack : List.of("demo-karpenter", "demo-nodepools")) {
            assertThat(requiredProviders(stack).path("helm"))
                    .as(stack)
                    .isEqualTo(Json.parse("{\"source\": \"hashicorp/helm\", \"version\": \"2.12.1\"}"));
        }
        assertThat(requiredProviders("demo-iam").has("helm")).isFalse();
    }

    private static JsonNode requiredProviders(String stack) {
        return LOCAL.stack(stack).path("terraform").path("required_providers");
    }

    @Test
    void configuresTheProviderRegionAndDefaultTags() {
        JsonNode provider = LOCAL.stack("demo-iam").path("provider").path("aws").get(0);
        assertThat(provider.path("region").asText()).isEqualTo("us-west-2");
        assertThat(provider.path("default_tags")
                        .get(0)
                        .path("tags")
                        .path("Team")
                        .asText())
                .isEqualTo("platform");
    }

    @Test
    void localStateLivesInTheProjectThroughARelativePath() {
        for (String stack : STACKS) {
            JsonNode backend = LOCAL.stack(stack).path("terraform").path("backend");
            assertThat(fieldNames(backend)).containsExactly("local");
            assertThat(backend.path("local").path("path").asText()).isEqualTo("../../terraform." + stack + ".tfstate");
        }
    }

    @Test
    void s3StateHasOneEncryptedLockedKeyPerStack() {
        List<String> keys = new ArrayList<>();
        for (String stack : STACKS) {
            JsonNode s3 = S3.stack(stack).path("terraform").path("backend").path("s3");
            assertThat(s3.path("bucket").asText()).isEqualTo("tf-state");
            assertThat(s3.path("region").asText()).isEqualTo("eu-west-1");
            assertThat(s3.path("encrypt").asBoolean()).isTrue();
            assertThat(s3.path("use_lockfile").asBoolean()).isTrue();
            keys.add(s3.path("key").asText());
        }
        assertThat(keys)
                .containsExactly(
                        "platform/karpenter/demo-iam.tfstate",
                        "platform/karpenter/demo-interruption.tfstate",
                        "platform/karpenter/demo-karpenter.tfstate",
                        "platform/karpenter/demo-nodepools.tfstate");
    }

    @Test
    void declaresTheDeployOrder() {
        JsonNode stacks = LOCAL.manifest().path("stacks");
        assertThat(texts(stacks.path("demo-iam").path("dependencies"))).isEmpty();
        assertThat(texts(stacks.path("demo-interruption").path("dependencies"))).isEmpty();
        assertThat(texts(stacks.path("demo-karpenter").path("dependencies"))).contains("demo-iam", "demo-interruption");
        assertThat(texts(stacks.path("demo-nodepools").path("dependencies"))).contains("demo-karpenter");
    }

    /** The shipped example and the reference configurations: every kind of reference between stacks. */
    @RegisterExtension
    static final Synthesized REFERENCE = Synthesized.of(TestConfigs.referenceConfigurations());

    /** The seed guide's setup: its node role is the node group's, read by a data source of the IAM stack. */
    @RegisterExtension
    static final Synthesized SEED = Synthesized.app()
            .cluster(ConfigLoader.read(Path.of("examples/seed-v0.30.tfvars")))
            .synthesize();

    /**
     * Each stack resolves only the references to other stacks it knows it holds, instead of cdktf's preparing pass
     * over all its elements (aws.CrossStackReferences): one left out would stay a reference to another stack's
     * resource, which this stack does not declare. So each reference must name what the stack declares, and the
     * controller stack reads the IAM stack through the remote state the narrowed pass gave it.
     */
    @Test
    void everyStackRefersOnlyToWhatItDeclares() {
        for (Synthesized app : List.of(LOCAL, S3, REFERENCE, SEED)) {
            for (String stack : fieldNames(app.manifest().path("stacks"))) {
                JsonNode json = app.stack(stack);
                Set<String> references = references(json);
                assertThat(references).as(stack).isNotEmpty();
                assertThat(references).as(stack).isSubsetOf(declared(json));
            }
            for (String controller : fieldNames(app.manifest().path("stacks"))) {
                if (controller.endsWith("-karpenter")) {
                    assertThat(fieldNames(app.stack(controller).path("data").path("terraform_remote_state")))
                            .as(controller + " reads the IAM stack's outputs")
                            .anyMatch(id -> id.startsWith("cross-stack-reference-input"));
                }
            }
        }
    }

    private static final Pattern REFERENCE_EXPRESSION = Pattern.compile(
            "(?<![\\w.-])(data\\.[a-z][a-z0-9_]*\\.[A-Za-z0-9_-]+|(?:aws_[a-z0-9_]+|terraform_data|local)\\.[A-Za-z0-9_-]+)");

    /** Resources, data sources and locals named in the stack's expressions (inside each ${...}). */
    private static Set<String> references(JsonNode stack) {
        Set<String> references = new TreeSet<>();
        List<String> values = new ArrayList<>();
        collectTexts(stack, values);
        for (String value : values) {
            for (int start = value.indexOf("${"); start >= 0; start = value.indexOf("${", start + 2)) {
                int depth = 0;
                int end = start + 1;
                do {
                    char c = value.charAt(end);
                    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                    end++;
                } while (depth > 0 && end < value.length());
                Matcher matcher = REFERENCE_EXPRESSION.matcher(value.substring(start + 2, end - 1));
                while (matcher.find()) {
                    references.add(matcher.group(1));
                }
            }
        }
        return references;
    }

    private static Set<String> declared(JsonNode stack) {
        Set<String> declared = new TreeSet<>();
        stack.path("resource")
                .fields()
                .forEachRemaining(
                        type -> fieldNames(type.getValue()).forEach(id -> declared.add(type.getKey() + "." + id)));
        stack.path("data")
                .fields()
                .forEachRemaining(type ->
                        fieldNames(type.getValue()).forEach(id -> declared.add("data." + type.getKey() + "." + id)));
        fieldNames(stack.path("locals")).forEach(name -> declared.add("local." + name));
        return declared;
    }

    private static void collectTexts(JsonNode node, List<String> texts) {
        if (node.isTextual()) {
            texts.add(node.asText());
        }
        node.forEach(child -> collectTexts(child, texts));
    }
}
