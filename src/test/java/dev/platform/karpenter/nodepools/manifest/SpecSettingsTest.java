package dev.platform.karpenter.nodepools.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.schema.ReleaseSchemas;
import dev.platform.karpenter.testing.Docs;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeSteps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * node_pool_spec, node_class_spec, node_classes and the node_pools entry keys spec and node_class: merged over the
 * typed settings' objects, checked against the deployed release's CRDs at synth, refused in one line naming the
 * field.
 */
@KernelOnlyThroughSynthesized
class SpecSettingsTest {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String NEWEST = UpgradeSteps.newestRelease().chartVersion();
    private static final String SEED_GENERATION = "v0.31.5";

    /** The hcl examples of the guide's section on upstream fields, for the newest release. */
    static List<String> readmeExamples() throws IOException {
        String guide = Docs.page("docs/guides/upstream-fields.md");
        String section = guide.substring(
                guide.indexOf("## Upstream fields"), guide.indexOf("## Configuring anything upstream defines"));
        List<String> examples = new ArrayList<>();
        Matcher block = Pattern.compile("```hcl\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (block.find()) {
            examples.add(block.group(1));
        }
        assertThat(examples).hasSize(4);
        return examples;
    }

    @ParameterizedTest
    @MethodSource("readmeExamples")
    void eachReadmeExampleSynthesizesAndEveryObjectIsValidForTheNewestRelease(String example) {
        ClusterConfig config = TestConfigs.config(NEWEST, example);
        SpecCheck.requireValid(config);
        List<JsonNode> objects = Rendered.of(config);
        ReleaseSchemas schemas = ReleaseSchemas.of(config.release());
        for (JsonNode object : objects) {
            assertThat(schemas.validate(
                            object.path("apiVersion").asText(),
                            object.path("kind").asText(),
                            object))
                    .as(object.path("kind").asText() + " "
                            + object.at("/metadata/name").asText())
                    .isEmpty();
        }
    }

    @Test
    void theExamplesFieldsReachTheRenderedObjects() throws IOException {
        List<String> examples = readmeExamples();
        List<JsonNode> budgets = Rendered.of(TestConfigs.config(NEWEST, examples.get(0)));
        assertThat(Rendered.spec(budgets, "NodePool", "default").at("/disruption/budgets"))
                .isEqualTo(
                        json(
                                "[{\"nodes\":\"0\",\"schedule\":\"0 9 * * mon-fri\",\"duration\":\"8h\"},{\"nodes\":\"1\",\"reasons\":[\"Drifted\"]},{\"nodes\":\"10%\"}]"));
        List<JsonNode> gpu = Rendered.of(TestConfigs.config(NEWEST, examples.get(1)));
        JsonNode gpuPool = Rendered.spec(gpu, "NodePool", "gpu");
        assertThat(gpuPool.at("/template/spec/nodeClassRef/name").asText()).isEqualTo("gpu");
        assertThat(gpuPool.at("/limits").toString())
                .isEqualTo("{\"cpu\":1000,\"memory\":\"1000Gi\",\"nvidia.com/gpu\":16}");
        JsonNode gpuClass = Rendered.spec(gpu, "EC2NodeClass", "gpu");
        assertThat(gpuClass.at("/amiSelectorTerms/0/alias").asText()).isEqualTo("al2023@latest");
        assertThat(gpuClass.at("/blockDeviceMappings/0/ebs/volumeSize").asText())
                .isEqualTo("300Gi");
        assertThat(gpuClass.at("/role").asText()).isEqualTo(Rendered.ROLE);
        assertThat(specAt(gpu, "EC2NodeClass", "default", "/blockDeviceMappings/1/ebs/volumeSize")
                        .asText())
                .as("the node class default keeps Bottlerocket's volumes")
                .isEqualTo("20Gi");
        assertThat(specAt(gpu, "NodePool", "default", "/template/spec/nodeClassRef/name")
                        .asText())
                .isEqualTo("default");
        JsonNode kubelet =
                Rendered.spec(Rendered.of(TestConfigs.config(NEWEST, examples.get(2))), "EC2NodeClass", "default");
        assertThat(kubelet.at("/kubelet/maxPods").asInt()).isEqualTo(110);
        assertThat(kubelet.at("/metadataOptions/httpPutResponseHopLimit").asInt())
                .isEqualTo(2);
        List<JsonNode> reserved = Rendered.of(TestConfigs.config(NEWEST, examples.get(3)));
        assertThat(Rendered.spec(reserved, "NodePool", "default").at("/template/spec/requirements/0"))
                .isEqualTo(
                        json(
                                "{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\",\"values\":[\"reserved\",\"on-demand\"]}"));
        assertThat(Rendered.spec(reserved, "EC2NodeClass", "default").at("/capacityReservationSelectorTerms"))
                .isEqualTo(
                        json(
                                "[{\"id\":\"cr-0123456789abcdef0\"},{\"tags\":{\"team\":\"ml\"},\"ownerID\":\"123456789012\"}]"));
    }

    @Test
    void theSeedsGenerationTakesProvisionerAndAwsNodeTemplateFields() {
        ClusterConfig config = TestConfigs.config(
                SEED_GENERATION,
                "node_pool_spec = { kubeletConfiguration = { maxPods = 110 }, weight = 10 }",
                "node_class_spec = { metadataOptions = { httpPutResponseHopLimit = 2 } }",
                "node_classes = [{ name = \"gpu\", spec = { tags = { gpu = \"true\" } } }]",
                "node_pools = [{ name = \"gpu\", node_class = \"gpu\", spec = { limits = { resources = { \"nvidia.com/gpu\" = 8 } } } }]");
        SpecCheck.requireValid(config);
        List<JsonNode> objects = Rendered.of(config);
        assertThat(specAt(objects, "Provisioner", "default", "/kubeletConfiguration/maxPods")
                        .asInt())
                .isEqualTo(110);
        assertThat(specAt(objects, "Provisioner", "gpu", "/providerRef/name").asText())
                .isEqualTo("gpu");
        assertThat(specAt(objects, "Provisioner", "gpu", "/limits/resources/nvidia.com~1gpu")
                        .asInt())
                .isEqualTo(8);
        assertThat(specAt(objects, "AWSNodeTemplate", "default", "/metadataOptions/httpPutResponseHopLimit")
                        .asInt())
                .isEqualTo(2);
        assertThat(specAt(objects, "AWSNodeTemplate", "gpu", "/tags/gpu").asText())
                .isEqualTo("true");
        ReleaseSchemas schemas = ReleaseSchemas.of(config.release());
        objects.forEach(o -> assertThat(schemas.validate(
                        o.path("apiVersion").asText(), o.path("kind").asText(), o))
                .isEmpty());
    }

    @Test
    void mapsMergeKeyByKeyListsReplaceAndNullRemoves() {
        JsonNode pool = Rendered.spec(
                TestConfigs.config(
                        NEWEST,
                        "node_pool_spec = { limits = { memory = null, \"nvidia.com/gpu\" = 4 }, template = { spec = {"
                                + " taints = [{ key = \"a\", effect = \"NoSchedule\", value = null }] } } }"),
                "NodePool",
                "default");
        assertThat(pool.at("/limits").toString()).isEqualTo("{\"cpu\":1000,\"nvidia.com/gpu\":4}");
        assertThat(pool.at("/template/spec/taints").toString())
                .isEqualTo("[{\"key\":\"a\",\"effect\":\"NoSchedule\"}]");
        assertThat(pool.at("/template/spec/requirements").size())
                .as("untouched siblings stay")
                .isEqualTo(5);
        JsonNode noBudgets = Rendered.spec(
                TestConfigs.config(NEWEST, "node_pool_spec = { disruption = { budgets = [] } }"),
                "NodePool",
                "default");
        assertThat(noBudgets.at("/disruption/budgets").isArray())
                .as("an empty list a user writes stays")
                .isTrue();
    }

    @Test
    void aPoolsSpecIsNotInheritedByOtherPools() {
        List<JsonNode> objects = Rendered.of(TestConfigs.config(
                NEWEST,
                "node_pool_spec = { weight = 10 }",
                "node_pools = [{ name = \"b\", spec = { weight = 20 } }, { name = \"c\" }]"));
        assertThat(Rendered.spec(objects, "NodePool", "default").path("weight").asInt())
                .isEqualTo(10);
        assertThat(Rendered.spec(objects, "NodePool", "b").path("weight").asInt())
                .isEqualTo(20);
        assertThat(Rendered.spec(objects, "NodePool", "c").has("weight")).isFalse();
    }

    static Stream<Arguments> wrongSpecs() {
        return Stream.of(
                wrong(
                        NEWEST,
                        "node_pool_spec = { disruption = { budgets = [{ nodes = \"150%\" }] } }",
                        "node_pool_spec.disruption.budgets[0].nodes: \"150%\" does not match ^((100|[0-9]{1,2})%|[0-9]+)$ (NodePool, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_pool_spec = { disruption = { budget = [] } }",
                        "node_pool_spec.disruption.budget: unknown field (did you mean \"budgets\"?); allowed: budgets, consolidateAfter, consolidationPolicy (NodePool, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_class_spec = { metadataOptions = { httpPutResponseHopLimit = 100 } }",
                        "node_class_spec.metadataOptions.httpPutResponseHopLimit: 100 is above the maximum 64 (EC2NodeClass, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_class_spec = { kubelet = { maxPods = \"x\" } }",
                        "node_class_spec.kubelet.maxPods: \"x\" is a string; expected an integer (EC2NodeClass, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_class_spec = { amiSelectorTerms = null }",
                        "node_class_spec.amiSelectorTerms: is required (EC2NodeClass, Karpenter " + TestConfigs.V1
                                + ")"),
                wrong(
                        NEWEST,
                        "node_pools = [{ name = \"a\", spec = { weight = 1000 } }]",
                        "node_pools[0].spec.weight: 1000 is above the maximum 100 (NodePool, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_classes = [{ name = \"gpu\", spec = { amiSelectorTerms = [{ alias = \"ubuntu@latest\" }] } }]\n"
                                + "node_pools = [{ name = \"gpu\", node_class = \"gpu\" }]",
                        "node_classes[0].spec.amiSelectorTerms[0].alias: family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025' (got \"ubuntu@latest\") (EC2NodeClass, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_pool_spec = { template = { metadata = { labels = { \"karpenter.sh/foo\" = \"x\" } } } }",
                        "node_pool_spec.template.metadata.labels: label domain \"karpenter.sh\" is restricted (NodePool, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        NEWEST,
                        "node_class_spec = { role = \"other\" }",
                        "node_class_spec.role is set by the project: every node class uses the project's node role (node_group_name, iam_role_arn or create_iam_role), so the controller's iam:PassRole names exactly that role"),
                wrong(
                        NEWEST,
                        "node_class_spec = { instanceProfile = \"p\" }",
                        "node_class_spec.instanceProfile is set by the project: every node class uses the project's node role"),
                wrong(
                        NEWEST,
                        "node_pool_spec = { template = { spec = { nodeClassRef = { name = \"x\" } } } }",
                        "node_pool_spec.template.spec.nodeClassRef is set from node_class: name the node class there"),
                wrong(
                        SEED_GENERATION,
                        "node_class_spec = { instanceProfile = \"x\" }",
                        "node_class_spec.instanceProfile is set by the project: nodes take the instance profile it makes for the project's node role"),
                wrong(
                        SEED_GENERATION,
                        "node_pool_spec = { providerRef = { name = \"x\" } }",
                        "node_pool_spec.providerRef is set from node_class: name the node class there"),
                wrong(
                        SEED_GENERATION,
                        "node_pool_spec = { provider = {} }",
                        "node_pool_spec.provider is set from node_class: name the node class there"),
                wrong(
                        SEED_GENERATION,
                        "node_pool_spec = { consolidation = { enabled = \"yes\" } }",
                        "node_pool_spec.consolidation.enabled: \"yes\" is a string; expected a boolean (Provisioner, Karpenter v0.31.5)"),
                // A spec for one generation at a step that declares another too, or keeps the previous one.
                wrong(
                        "v0.32.10",
                        "node_pool_spec = { disruption = { budgets = [{ nodes = \"5\" }] } }",
                        "node_pool_spec.disruption: unknown field; allowed: annotations, consolidation, kubeletConfiguration, labels"),
                wrong(
                        "1.0.14",
                        "node_pool_spec = { template = { spec = { expireAfter = \"24h\" } } }",
                        "node_pool_spec.template.spec.expireAfter: unknown field; allowed: kubelet, nodeClassRef, requirements, resources, startupTaints, taints (NodePool v1beta1, Karpenter 1.0.14)"),
                wrong(
                        NEWEST,
                        "node_pools = [{ name = \"gpu\", node_class = \"gpu\" }]",
                        "node_pools[0]: node_class \"gpu\" is not a node class; use \"default\" or a name from node_classes (\"default\")"),
                wrong(
                        NEWEST,
                        "node_classes = [{ name = \"default\" }]\nnode_class_spec = { userData = \"x\" }",
                        "node_classes[0]: name \"default\" makes the entry the node class \"default\", which"
                                + " node_class_spec also writes"),
                wrong(
                        NEWEST,
                        "node_classes = [{ name = \"a\" }, { name = \"a\" }]",
                        "node_classes[1]: name \"a\" is used by another node class"),
                wrong(
                        NEWEST,
                        "node_classes = [{ name = \"a\", cpu_limit = 3 }]",
                        "node_classes[0]: unknown setting cpu_limit"),
                wrong(
                        SEED_GENERATION,
                        "node_classes = [{ name = \"a\", ami_family = \"AL2023\" }]",
                        "node_classes[0]: ami_family \"AL2023\" applies to Karpenter"),
                // Capacity reservations: selectors as the CRD's rules allow, and only from the releases with them.
                wrong(
                        NEWEST,
                        "node_class_spec = { capacityReservationSelectorTerms = [{ id = \"cr-0123456789abcdef0\", ownerID = \"123456789012\" }] }",
                        "node_class_spec.capacityReservationSelectorTerms: 'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term (EC2NodeClass, Karpenter "
                                + TestConfigs.V1 + ")"),
                wrong(
                        BEFORE_RESERVATIONS,
                        "node_class_spec = { capacityReservationSelectorTerms = [{ id = \"cr-0123456789abcdef0\" }] }",
                        "node_class_spec.capacityReservationSelectorTerms: unknown field; allowed: amiFamily, amiSelectorTerms"),
                wrong(NEWEST, "node_pool_spec = [1]", "node_pool_spec must be"));
    }

    /** The newest release without capacity reservations. */
    private static final String BEFORE_RESERVATIONS = KarpenterMinor.all()
            .get(KarpenterMinor.all().indexOf(KarpenterMinor.Feature.CAPACITY_RESERVATIONS.introducedBy()) - 1)
            .newestRelease()
            .chartVersion();

    private static Arguments wrong(String release, String line, String message) {
        return Arguments.of(release, line, message);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource({"wrongSpecs", "dev.platform.karpenter.nodepools.manifest.ObjectKeysTest#refused"})
    void aWrongSpecIsRefusedInOneLineNamingTheField(String release, String line, String message) {
        assertThatThrownBy(() -> SpecCheck.requireValid(TestConfigs.config(release, line)))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage()).startsWith(message).doesNotContain("\n"));
    }

    @Test
    void theLineNamesTheFileAsTheAppPrintsIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("c1.tfvars");
        Files.writeString(
                file,
                TestConfigs.tfvarsFor(
                        "c1",
                        "us-west-2",
                        NEWEST,
                        "node_pool_spec = { disruption = { budgets = [{ nodes = \"150%\" }] } }"));
        assertThatThrownBy(() -> ConfigLoader.load(List.of(file), Map.of(), SpecCheck::requireValid))
                .hasMessage(file + ": node_pool_spec.disruption.budgets[0].nodes: \"150%\" does not match"
                        + " ^((100|[0-9]{1,2})%|[0-9]+)$ (NodePool, Karpenter " + TestConfigs.V1 + ")");
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The field at {@code path} of the spec of the rendered object {@code kind}/{@code name}. */
    private static JsonNode specAt(List<JsonNode> objects, String kind, String name, String path) {
        return Rendered.spec(objects, kind, name).at(path);
    }
}
