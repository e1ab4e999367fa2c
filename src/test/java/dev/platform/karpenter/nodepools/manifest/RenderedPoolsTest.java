package dev.platform.karpenter.nodepools.manifest;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The model: each pool and node class built once as its final object, every derived fact read from that object,
 * and the rules between typed settings and specs (SpecRules), one test each.
 */
class RenderedPoolsTest {
    private static final String AL2023_ALIAS =
            "node_class_spec = { amiSelectorTerms = [{ alias = \"al2023@latest\" }] }";

    // --- Rule 1: a typed default steps aside where the spec makes it wrong --------------------------------------

    @Test
    void aSpecAliasBringsItsFamilysDisksNotTheDefaultFamilys() {
        JsonNode nodeClass = Rendered.spec(config(V1, AL2023_ALIAS), "EC2NodeClass", "default");

        assertThat(nodeClass.path("amiSelectorTerms").get(0).path("alias").asText())
                .isEqualTo("al2023@latest");
        // Bottlerocket's 4Gi root would not boot the AL2023 AMI (20 GiB snapshot): AL2023 brings its own volume.
        assertThat(nodeClass.has("blockDeviceMappings")).isFalse();
        assertThat(RenderedPools.of(config(V1, AL2023_ALIAS)).imageFamilies()).containsExactly(AmiFamily.AL2023);
    }

    /** Kubernetes labels and AWS tags may be empty strings; an entry with one must reach the objects. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "v0.30.0, Provisioner, /labels, AWSNodeTemplate",
        "newest, NodePool, /template/metadata/labels, EC2NodeClass"
    })
    void labelsAndTagsWithAnEmptyValueAreRendered(String version, String poolKind, String labelsAt, String classKind) {
        ClusterConfig config = config(
                version.equals("newest") ? V1 : version,
                "node_labels = { \"example.com/batch\" = \"\" }",
                "tags = { Owner = \"\" }");

        JsonNode labels = Rendered.spec(config, poolKind, "default").at(labelsAt);
        JsonNode tags = Rendered.spec(config, classKind, "default").path("tags");

        assertThat(labels.has("example.com/batch")).isTrue();
        assertThat(labels.path("example.com/batch").asText("x")).isEmpty();
        assertThat(tags.has("Owner")).isTrue();
        assertThat(tags.path("Owner").asText("x")).isEmpty();
    }

    @Test
    void aSpecAmiFamilyCustomBringsNoDisksOfTheProject() {
        ClusterConfig config = config(
                V1,
                "node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ id = \"ami-0123456789abcdef0\" }],"
                        + " userData = \"echo hi\" }");
        JsonNode nodeClass = Rendered.spec(config, "EC2NodeClass", "default");

        assertThat(nodeClass.path("amiFamily").asText()).isEqualTo("Custom");
        assertThat(nodeClass.has("blockDeviceMappings")).isFalse();
        assertThat(nodeClass.path("amiSelectorTerms")).hasSize(1);
        assertThat(RenderedPools.of(config).imageFamilies()).containsExactly(AmiFamily.CUSTOM);
    }

    @Test
    void aSpecsOwnDisksReplaceTheFamilys() {
        JsonNode nodeClass = Rendered.spec(
                config(
                        V1,
                        "node_class_spec = { blockDeviceMappings = [{ deviceName = \"/dev/xvda\", ebs = { volumeSize ="
                                + " \"100Gi\" } }] }"),
                "EC2NodeClass",
                "default");

        assertThat(nodeClass.path("blockDeviceMappings")).hasSize(1);
        assertThat(nodeClass
                        .path("blockDeviceMappings")
                        .get(0)
                        .path("ebs")
                        .path("volumeSize")
                        .asText())
                .isEqualTo("100Gi");
    }

    @Test
    void aStaticPoolGetsNoTypedLimits() {
        ClusterConfig config = config(V1, "node_pool_spec = { replicas = 3 }");
        JsonNode pool = Rendered.spec(config, "NodePool", "default");

        assertThat(pool.path("replicas").asInt()).isEqualTo(3);
        assertThat(pool.has("limits")).isFalse();
        SpecCheck.requireValid(config); // the newest CRD accepts it: no cpu or memory limit on a static pool
        assertThat(RenderedPools.of(config).pools().get(0).isStatic()).isTrue();
    }

    @Test
    void aStaticPoolKeepsTheNodesLimitItsSpecWrites() {
        JsonNode pool = Rendered.spec(
                config(V1, "node_pool_spec = { replicas = 3, limits = { nodes = 5 } }"), "NodePool", "default");

        assertThat(pool.path("limits").size()).isEqualTo(1);
        assertThat(pool.path("limits").path("nodes").asInt()).isEqualTo(5);
    }

    @Test
    void aPoolOnAWindowsClassRequiresWindowsNodes() {
        ClusterConfig config = config(
                V1,
                "node_classes = [{ name = \"windows\", ami_family = \"Windows2022\" }]",
                "node_pools = [{ name = \"windows\", node_class = \"windows\" }]");
        List<JsonNode> documents = Rendered.of(config);

        assertThat(Rendered.spec(documents, "EC2NodeClass", "windows")
                        .path("amiSelectorTerms")
                        .get(0)
                        .path("alias")
                        .asText())
                .isEqualTo("windows2022@latest");
        assertThat(Rendered.spec(documents, "EC2NodeClass", "windows").has("blockDeviceMappings"))
                .isFalse();
        assertThat(Rendered.spec(documents, "NodePool", "windows")
                        .path("template")
                        .path("spec")
                        .path("requirements"))
                .anySatisfy(requirement -> {
                    assertThat(requirement.path("key").asText()).isEqualTo("kubernetes.io/os");
                    assertThat(requirement.path("values").get(0).asText()).isEqualTo("windows");
                });
        assertThat(RenderedPools.of(config).launchesWindows()).isTrue();
        assertThat(RenderedPools.of(config(V1)).launchesWindows()).isFalse();
    }

    // --- Rule 2: a written typed setting against a written spec field is refused, naming both -------------------

    @Test
    void anAmiFamilyAgainstASpecAliasIsRefusedNamingBoth() {
        assertRefused(
                config(
                        V1,
                        "ami_family = \"AL2023\"",
                        "node_class_spec = { amiSelectorTerms = [{ alias =" + " \"bottlerocket@latest\" }] }"),
                "ami_family = \"AL2023\" contradicts node_class_spec.amiSelectorTerms[0].alias ="
                        + " \"bottlerocket@latest\"");
        assertRefused(
                config(
                        V1,
                        "node_classes = [{ name = \"gpu\", ami_family = \"AL2\", spec = { amiFamily = \"Custom\","
                                + " amiSelectorTerms = [{ id = \"ami-0123456789abcdef0\" }] } }]",
                        "node_pools = [{ name = \"gpu\", node_class = \"gpu\" }]"),
                "node_classes[0].ami_family = \"AL2\" contradicts node_classes[0].spec.amiFamily = \"Custom\"");
    }

    @Test
    void aMatchingAmiFamilyAndAliasAgree() {
        JsonNode nodeClass =
                Rendered.spec(config(V1, "ami_family = \"AL2023\"", AL2023_ALIAS), "EC2NodeClass", "default");

        assertThat(nodeClass.path("amiSelectorTerms").get(0).path("alias").asText())
                .isEqualTo("al2023@latest");
    }

    @Test
    void anAmiVersionAgainstTheAliasVersionIsRefused() {
        assertRefused(
                config(V1, "ami_family = \"AL2023\"", "ami_version = \"v20240625\"", AL2023_ALIAS),
                "ami_version = \"v20240625\" contradicts node_class_spec.amiSelectorTerms[0].alias = \"al2023@latest\"");
    }

    /** An ami_version the object would not carry is refused, however the spec takes the alias away. */
    @Test
    void anAmiVersionTheObjectWouldNotCarryIsRefused() {
        // amiFamily Custom with an alias: the alias's version still counts
        assertRefused(
                config(
                        V1,
                        "ami_version = \"v1.20.3\"",
                        "node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ alias ="
                                + " \"bottlerocket@latest\" }], userData = \"x\" }"),
                "ami_version = \"v1.20.3\" contradicts node_class_spec.amiSelectorTerms[0].alias ="
                        + " \"bottlerocket@latest\"");
        // AMIs by id: no alias for the version to name
        assertRefused(
                config(
                        V1,
                        "ami_version = \"v1.20.3\"",
                        "node_class_spec = { amiFamily = \"Bottlerocket\", amiSelectorTerms = [{ id ="
                                + " \"ami-0123456789abcdef0\" }] }"),
                "ami_version = \"v1.20.3\" names the version of an alias, but node_class_spec.amiSelectorTerms"
                        + " selects AMIs without one");
        // amiFamily of another family: the alias becomes that family's, at latest
        assertRefused(
                config(V1, "ami_version = \"v1.20.3\"", "node_class_spec = { amiFamily = \"AL2023\" }"),
                "ami_version = \"v1.20.3\" is a release of Bottlerocket, but node_class_spec.amiFamily = \"AL2023\""
                        + " makes the alias \"al2023@latest\"");
        // amiFamily Custom without terms: one line, not a crash
        assertRefused(
                config(
                        V1,
                        "ami_version = \"v1.20.3\"",
                        "node_class_spec = { amiFamily = \"Custom\", userData = \"x\" }"),
                "ami_version = \"v1.20.3\" is a release of Bottlerocket, but node_class_spec.amiFamily = \"Custom\""
                        + " takes no alias");
        // amiFamily of the typed family keeps the typed alias and its version
        JsonNode kept = Rendered.spec(
                config(V1, "ami_version = \"v1.20.3\"", "node_class_spec = { amiFamily = \"Bottlerocket\" }"),
                "EC2NodeClass",
                "default");
        assertThat(kept.path("amiSelectorTerms").get(0).path("alias").asText()).isEqualTo("bottlerocket@v1.20.3");
    }

    /** Karpenter gives a Custom class's instance types the linux system: a Windows alias's AMIs match none of them. */
    @Test
    void aCustomClassWithAWindowsAliasIsRefused() {
        assertRefused(
                config(
                        V1,
                        "node_classes = [{ name = \"win\", spec = { amiFamily = \"Custom\", amiSelectorTerms = [{"
                                + " alias = \"windows2022@latest\" }], userData = \"x\" } }]",
                        "node_pools = [{ name = \"win\", node_class = \"win\" }]"),
                "node_classes[0].spec.amiFamily = \"Custom\" with node_classes[0].spec.amiSelectorTerms[0].alias ="
                        + " \"windows2022@latest\" launches no node");
        // with a Linux alias, the image family is the alias's and the bootstrap the class's own
        RenderedNodeClass linux = RenderedPools.of(config(
                        V1,
                        "node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ alias ="
                                + " \"al2023@latest\" }], userData = \"x\" }"))
                .nodeClasses()
                .get(0);
        assertThat(linux.family()).isEqualTo(AmiFamily.CUSTOM);
        assertThat(linux.imageFamily()).isEqualTo(AmiFamily.AL2023);
        // and a Windows-only pool on a Custom class would match none of its linux instance types
        assertRefused(
                config(
                        V1,
                        "node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ id ="
                                + " \"ami-0123456789abcdef0\" }], userData = \"x\" }",
                        "node_pool_spec = { template = { spec = { requirements = [{ key = \"kubernetes.io/os\","
                                + " operator = \"In\", values = [\"windows\"] }] } } }"),
                "node_pool_spec.template.spec.requirements admits no kubernetes.io/os \"linux\", but the pool's node"
                        + " class \"default\" runs Custom");
    }

    @Test
    void aWrittenLimitOnAStaticPoolIsRefused() {
        assertRefused(
                config(V1, "cpu_limit = 100", "node_pool_spec = { replicas = 3 }"),
                "cpu_limit = \"100\" contradicts node_pool_spec.replicas = \"3\"");
        assertRefused(
                config(V1, "node_pools = [{ name = \"fixed\", memory_limit = \"10Gi\", spec = { replicas = 2 } }]"),
                "node_pools[0].memory_limit = \"10Gi\" contradicts node_pools[0].spec.replicas = \"2\"");
    }

    @Test
    void aTypedSettingTheSpecDropsIsRefused() {
        String armOnly = "node_pool_spec = { template = { spec = { requirements = [{ key = \"kubernetes.io/arch\","
                + " operator = \"In\", values = [\"arm64\"] }] } } }";
        assertRefused(
                config(V1, "capacity_types = [\"on-demand\"]", armOnly),
                "capacity_types is not in node_pool_spec.template.spec.requirements, which replaces the typed"
                        + " requirements: write it in one place (remove capacity_types, or add"
                        + " karpenter.sh/capacity-type In [on-demand] to the spec's requirements)");
        // The same requirement in the spec (values in any order) keeps it.
        SpecCheck.requireValid(config(
                V1,
                "capacity_types = [\"on-demand\", \"spot\"]",
                "node_pool_spec = { template = { spec = { requirements = [{ key = \"karpenter.sh/capacity-type\","
                        + " operator = \"In\", values = [\"spot\", \"on-demand\"] }] } } }"));
        assertRefused(
                config(
                        V1,
                        "expire_after = \"24h\"",
                        "node_pool_spec = { template = { spec = { expireAfter = \"48h\" } } }"),
                "expire_after (template.spec.expireAfter = \"24h\") contradicts"
                        + " node_pool_spec.template.spec.expireAfter = \"48h\"");
        assertRefused(
                config(V1, "cpu_limit = 100", "node_pool_spec = { limits = { cpu = 5 } }"),
                "cpu_limit (limits.cpu = \"100\") contradicts node_pool_spec.limits.cpu = \"5\"");
        assertRefused(
                config(
                        V1,
                        "node_labels = { team = \"a\" }",
                        "node_pool_spec = { template = { metadata = { labels = {" + " team = \"b\" } } } }"),
                "node_labels (template.metadata.labels");
        // Unwritten, the typed defaults step aside; written the same, they agree.
        SpecCheck.requireValid(config(V1, "node_pool_spec = { template = { spec = { expireAfter = \"48h\" } } }"));
        SpecCheck.requireValid(config(V1, "cpu_limit = 5", "node_pool_spec = { limits = { cpu = 5 } }"));
        SpecCheck.requireValid(config(
                V1,
                "node_labels = { team = \"a\" }",
                "node_pool_spec = { template = { metadata = { labels = { more =" + " \"b\" } } } }"));
    }

    @Test
    void aNodeClassSettingTheSpecOverwritesIsRefused() {
        assertRefused(
                config(V1, "tags = { Team = \"a\" }", "node_class_spec = { tags = { Team = \"b\" } }"),
                "tags (tags = \"{Team=a}\") contradicts node_class_spec.tags = \"{Team=b}\"");
        assertRefused(
                config(
                        V1,
                        "discovery_tag_value = \"shared\"",
                        "node_class_spec = { subnetSelectorTerms = [{ id = \"subnet-0123456789abcdef0\" }] }"),
                "discovery_tag_value (subnetSelectorTerms");
        // Unwritten, the discovery selector steps aside for the spec's own; other tag keys merge.
        SpecCheck.requireValid(
                config(V1, "node_class_spec = { subnetSelectorTerms = [{ id = \"subnet-0123456789abcdef0\" }] }"));
        SpecCheck.requireValid(config(V1, "tags = { Team = \"a\" }", "node_class_spec = { tags = { Cost = \"1\" } }"));
    }

    // --- Rule 3: the object makes sense as a whole -----------------------------------------------------------

    @Test
    void aLinuxOnlyPoolOnAWindowsClassIsRefusedAndTheReverse() {
        String linuxOnly = "spec = { template = { spec = { requirements = [{ key = \"kubernetes.io/os\", operator ="
                + " \"In\", values = [\"linux\"] }] } } }";
        assertRefused(
                config(
                        V1,
                        "node_classes = [{ name = \"win\", ami_family = \"Windows2022\" }]",
                        "node_pools = [{ name = \"win\", node_class = \"win\", " + linuxOnly + " }]"),
                "node_pools[0].spec.template.spec.requirements admits no kubernetes.io/os \"windows\", but the pool's"
                        + " node class \"win\" runs Windows2022");
        assertRefused(
                config(
                        V1,
                        "node_pool_spec = { template = { spec = { requirements = [{ key = \"kubernetes.io/os\","
                                + " operator = \"In\", values = [\"windows\"] }] } } }"),
                "node_pool_spec.template.spec.requirements admits no kubernetes.io/os \"linux\", but the pool's node"
                        + " class \"default\" runs Bottlerocket");
    }

    @Test
    void aTypedCustomFamilyTakesItsAmisAndUserDataFromTheSpec() {
        ClusterConfig config = config(
                V1,
                "ami_family = \"Custom\"",
                "node_class_spec = { amiSelectorTerms = [{ name = \"my-ami-*\" }], userData = \"echo hi\" }");
        JsonNode nodeClass = Rendered.spec(config, "EC2NodeClass", "default");

        assertThat(nodeClass.path("amiFamily").asText()).isEqualTo("Custom");
        assertThat(nodeClass.at("/amiSelectorTerms/0/name").asText()).isEqualTo("my-ami-*");
        assertThat(nodeClass.has("blockDeviceMappings")).isFalse();
        SpecCheck.requireValid(config);
    }

    /** The seed's generation names the family in the AWSNodeTemplate, and its Provisioner the system. */
    @Test
    void aWindowsClassOnTheSeedsGenerationIsAWindowsAwsNodeTemplate() {
        List<JsonNode> documents = Rendered.of(config(TestConfigs.V0, "ami_family = \"Windows2019\""));

        assertThat(Rendered.spec(documents, "AWSNodeTemplate", "default")
                        .path("amiFamily")
                        .asText())
                .isEqualTo("Windows2019");
        assertThat(Rendered.spec(documents, "AWSNodeTemplate", "default").has("blockDeviceMappings"))
                .isFalse();
        assertThat(Rendered.spec(documents, "Provisioner", "default").path("requirements"))
                .anySatisfy(requirement ->
                        assertThat(requirement.path("values").get(0).asText()).isEqualTo("windows"));
    }

    @Test
    void aCustomClassWithoutAmisIsRefused() {
        assertRefused(
                config(V1, "ami_family = \"Custom\""),
                "ami_family = \"Custom\" selects no AMI: write amiSelectorTerms (by id, name or tags) and userData in"
                        + " node_class_spec");
    }

    // --- Pools and node classes under their own names ---------------------------------------------------------

    @Test
    void onlyTheNamedPoolsAndTheClassesTheyUseAreRendered() {
        ClusterConfig config = config(
                V1,
                "default_node_pool = false",
                "node_classes = [{ name = \"windows\", ami_family = \"Windows2022\" }, { name = \"unused\" }]",
                "node_pools = [{ name = \"general-purpose\", node_class = \"windows\" }, { name = \"gpu\","
                        + " node_class = \"windows\" }]");

        assertThat(Rendered.identities(Rendered.of(config)))
                .containsExactly(
                        "karpenter.sh/v1 NodePool general-purpose",
                        "karpenter.sh/v1 NodePool gpu",
                        "karpenter.k8s.aws/v1 EC2NodeClass windows");
    }

    @Test
    void anEntryNamedDefaultIsThePoolDefaultOnAnyClass() {
        ClusterConfig config = config(
                V1,
                "cpu_limit = 50",
                "node_classes = [{ name = \"windows\", ami_family = \"Windows2019\" }]",
                "node_pools = [{ name = \"default\", node_class = \"windows\", spec = { weight = 5 } }]");
        List<JsonNode> documents = Rendered.of(config);

        assertThat(Rendered.identities(documents))
                .containsExactly("karpenter.sh/v1 NodePool default", "karpenter.k8s.aws/v1 EC2NodeClass windows");
        JsonNode pool = Rendered.spec(documents, "NodePool", "default");
        assertThat(pool.path("weight").asInt()).isEqualTo(5);
        assertThat(pool.path("limits").path("cpu").asInt()).isEqualTo(50); // the top-level settings, inherited
        assertThat(pool.at("/template/spec/nodeClassRef/name").asText()).isEqualTo("windows");
    }

    @Test
    void anEntryNamedDefaultIsTheNodeClassDefault() {
        ClusterConfig config = config(
                V1,
                "node_classes = [{ name = \"default\", ami_family = \"AL2023\", metadata = { annotations = {"
                        + " \"kubernetes.io/description\" = \"General purpose\" } } }]");
        List<JsonNode> documents = Rendered.of(config);

        assertThat(Rendered.identities(documents))
                .containsExactly("karpenter.sh/v1 NodePool default", "karpenter.k8s.aws/v1 EC2NodeClass default");
        JsonNode nodeClass = Rendered.find(documents, "EC2NodeClass", "default");
        assertThat(nodeClass.at("/spec/amiSelectorTerms/0/alias").asText()).isEqualTo("al2023@latest");
        assertThat(nodeClass
                        .at("/metadata/annotations/kubernetes.io~1description")
                        .asText())
                .isEqualTo("General purpose");
    }

    @Test
    void aClassDefaultNoPoolUsesIsRenderedOnlyWhereDeclared() {
        String elsewhere = "node_classes = [{ name = \"other\" }]\nnode_pools = [{ name = \"p\", node_class ="
                + " \"other\" }]\ndefault_node_pool = false";
        assertThat(Rendered.identities(Rendered.of(config(V1, elsewhere))))
                .containsExactly("karpenter.sh/v1 NodePool p", "karpenter.k8s.aws/v1 EC2NodeClass other");
        assertThat(Rendered.identities(Rendered.of(config(V1, elsewhere, "node_class_spec = { userData = \"x\" }"))))
                .containsExactly(
                        "karpenter.sh/v1 NodePool p",
                        "karpenter.k8s.aws/v1 EC2NodeClass default",
                        "karpenter.k8s.aws/v1 EC2NodeClass other");
    }

    @Test
    void metadataLabelsAndAnnotationsAreTheEntrysAndTheNameTheProjects() {
        ClusterConfig config = config(
                V1,
                "node_pools = [{ name = \"batch\", metadata = { labels = { team = \"data\" }, annotations = {"
                        + " \"kubernetes.io/description\" = \"Batch jobs\" } } }]");
        JsonNode pool = Rendered.find(Rendered.of(config), "NodePool", "batch");

        assertThat(pool.at("/metadata/labels/team").asText()).isEqualTo("data");
        assertThat(pool.at("/metadata/annotations/kubernetes.io~1description").asText())
                .isEqualTo("Batch jobs");
        TestConfigs.assertRejected(
                TestConfigs.tfvars(V1, "node_pools = [{ name = \"batch\", metadata = { name = \"other\" } }]"),
                "node_pools[0].metadata.name is set by the project");
        TestConfigs.assertRejected(
                TestConfigs.tfvars(
                        V1, "node_classes = [{ name = \"c\", metadata = { labels = { \"bad key!\" = \"x\" } } }]"),
                "node_classes[0].metadata.labels");
        TestConfigs.assertRejected(
                TestConfigs.tfvars(V1, "node_pools = [{ name = \"batch\", metadata = { owner = \"me\" } }]"),
                "node_pools[0].metadata.owner: unknown field; allowed: \"labels\", \"annotations\"");
    }

    // --- Derived facts ---------------------------------------------------------------------------------------

    /**
     * Karpenter v0.30 and v0.31 store a Provisioner with the requirements their webhook adds where none is written
     * (upstream's v1alpha5 Provisioner.SetDefaults): linux, amd64, on-demand, and c, m, r above generation 2 unless a
     * requirement names the instance type, family, category or generation. The rendered Provisioner carries them.
     */
    @Test
    void aProvisionerCarriesTheRequirementsKarpentersWebhookAdds() {
        ClusterConfig familyOnly = config(
                TestConfigs.V0,
                "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-family\", operator = \"In\","
                        + " values = [\"m6i\"] }] }");
        JsonNode requirements =
                Rendered.spec(familyOnly, "Provisioner", "default").path("requirements");
        assertThat(requirements.findValuesAsText("key"))
                .containsExactly(
                        "karpenter.k8s.aws/instance-family",
                        "kubernetes.io/os",
                        "kubernetes.io/arch",
                        "karpenter.sh/capacity-type");
        assertThat(requirements.get(2).path("values").get(0).asText()).isEqualTo("amd64");
        assertThat(RenderedPools.of(familyOnly).pools().get(0).defaulted()).hasSize(3);
        assertThat(RenderedPools.of(familyOnly).allowsSpot()).isFalse();

        ClusterConfig sizeOnly = config(
                TestConfigs.V0,
                "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Lt\","
                        + " values = [\"5\"] }] }");
        assertThat(Rendered.spec(sizeOnly, "Provisioner", "default")
                        .path("requirements")
                        .findValuesAsText("key"))
                .containsExactly(
                        "karpenter.k8s.aws/instance-cpu",
                        "kubernetes.io/os",
                        "kubernetes.io/arch",
                        "karpenter.sh/capacity-type",
                        "karpenter.k8s.aws/instance-category",
                        "karpenter.k8s.aws/instance-generation");
    }

    /** The typed settings write every requirement the webhook would add, and NodePools (v1beta1 on) get none added. */
    @Test
    void typedProvisionersAndNodePoolsGetNothingAdded() {
        assertThat(RenderedPools.of(config(TestConfigs.V0)).pools().get(0).defaulted())
                .isEmpty();
        ClusterConfig nodePool = config(
                V1,
                "node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"m6i\"] }] } } }");
        assertThat(Rendered.spec(nodePool, "NodePool", "default")
                        .at("/template/spec/requirements")
                        .findValuesAsText("key"))
                .containsExactly("karpenter.k8s.aws/instance-family");
    }

    /**
     * What a pool may launch, from a node_pools entry's spec alone, whatever the typed settings say (capacity_types
     * on-demand everywhere): the spot service-linked role and the reservation gate follow the spec.
     */
    @ParameterizedTest(name = "{0} {1}: spot {2}, reserved {3}")
    @CsvSource({
        "In, '\"spot\"', true, false",
        "In, '\"reserved\", \"on-demand\"', false, true",
        "NotIn, '\"on-demand\"', true, true",
        "NotIn, '\"spot\", \"reserved\"', false, false",
        "Exists, '', true, true",
        "DoesNotExist, '', false, false"
    })
    void aSpecsRequirementsDecideWhatThePoolMayLaunch(String operator, String values, boolean spot, boolean reserved) {
        RenderedPools pools = RenderedPools.of(config(
                V1,
                "capacity_types = [\"on-demand\"]",
                "node_pools = [{ name = \"batch\", spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.sh/capacity-type\", operator = \"" + operator + "\", values = ["
                        + values + "] }] } } } }]"));

        assertThat(pools.allowsSpot()).isEqualTo(spot);
        assertThat(pools.allowsReserved()).isEqualTo(reserved);
    }

    @Test
    void typedSettingsAloneDecideUntilASpecReplacesTheRequirements() {
        assertThat(RenderedPools.of(config(V1)).allowsSpot()).isTrue();
        assertThat(RenderedPools.of(config(V1)).allowsReserved()).isFalse();
        assertThat(RenderedPools.of(config(V1, "capacity_types = [\"on-demand\"]"))
                        .allowsSpot())
                .isFalse();
        assertThat(RenderedPools.of(config(V1, "capacity_types = [\"reserved\"]"))
                        .allowsReserved())
                .isTrue();
        // node_requirements on the label narrow capacity_types (requirements on one key are ANDed).
        assertThat(RenderedPools.of(config(
                                V1,
                                "node_requirements = [{ key = \"karpenter.sh/capacity-type\", operator = \"NotIn\","
                                        + " values = [\"spot\"] }]"))
                        .allowsSpot())
                .isFalse();
        // A spec's requirements without the label leave every capacity type open (the default capacity_types steps
        // aside; written, it would contradict them: aTypedSettingTheSpecDropsIsRefused).
        assertThat(RenderedPools.of(config(
                                V1,
                                "node_pool_spec = { template = { spec = { requirements = [{ key ="
                                        + " \"kubernetes.io/arch\", operator = \"In\", values = [\"arm64\"] }] } } }"))
                        .allowsSpot())
                .isTrue();
        // A spec that leaves the requirements alone leaves the typed ones.
        assertThat(RenderedPools.of(config(V1, "capacity_types = [\"on-demand\"]", "node_pool_spec = { weight = 10 }"))
                        .allowsSpot())
                .isFalse();
    }

    private static void assertRefused(ClusterConfig config, String message) {
        assertThatThrownBy(() -> SpecCheck.requireValid(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
