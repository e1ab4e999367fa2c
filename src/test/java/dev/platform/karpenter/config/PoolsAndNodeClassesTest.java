package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V0;
import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.assertRejected;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PoolsAndNodeClassesTest {

    @Test
    void defaultsMatchUpstreamsDefaultPool() {
        PoolsAndNodeClasses settings = config(V1).poolsAndClasses();

        assertThat(settings.nodeClass("default").amiFamily()).isEqualTo(AmiFamily.BOTTLEROCKET);
        assertThat(settings.nodeClass("default").discoveryTagKey()).isEqualTo("karpenter.sh/discovery");
        assertThat(settings.nodeClass("default").discoveryTagValue()).isEqualTo("demo");
        assertThat(settings.pools()).hasSize(1);
        PoolSettings pool = settings.pools().get(0);
        assertThat(pool.name()).isEqualTo("default");
        assertThat(pool.capacityTypes()).containsExactly("spot", "on-demand");
        assertThat(pool.architectures()).containsExactly("amd64");
        assertThat(pool.instanceCategories()).containsExactly("c", "m", "r");
        assertThat(pool.instanceGenerationMin()).isEqualTo(3);
        assertThat(pool.cpuLimit()).isEqualTo(1000);
        assertThat(pool.memoryLimit()).isEqualTo("1000Gi");
        assertThat(pool.consolidation()).isTrue();
        assertThat(pool.consolidateAfter()).isEmpty();
        assertThat(pool.expireAfter()).isEqualTo("720h");
        assertThat(pool.ttlSecondsAfterEmpty()).isEmpty();
        assertThat(pool.labels()).isEmpty();
        assertThat(pool.taints()).isEmpty();
        assertThat(pool.requirements()).isEmpty();
        assertThat(settings.uninstallHookImage())
                .isEqualTo(
                        "registry.k8s.io/kubectl:v1.28.15@sha256:498806b1515409c41d0d209fe2f5cd891fc571698ff19b1d3d9749f8b9b10f46");
        assertThat(settings.nodeClass("default").amiVersion()).isEqualTo("latest");
        assertThat(settings.nodeClass("default").tags()).isEmpty();
    }

    @Test
    void readsEverySetting() {
        PoolsAndNodeClasses settings = config(
                        V0,
                        "ami_family = \"AL2\"",
                        "discovery_tag_key = \"example.com/karpenter\"",
                        "discovery_tag_value = \"shared\"",
                        "capacity_types = [\"on-demand\"]",
                        "architectures = [\"amd64\", \"arm64\"]",
                        "instance_categories = []",
                        "instance_generation_min = 5",
                        "cpu_limit = 64",
                        "memory_limit = \"256Gi\"",
                        "consolidation = false",
                        "ttl_seconds_after_empty = 30",
                        "expire_after = \"Never\"",
                        "node_labels = { team = \"platform\" }",
                        "node_taints = [{ key = \"dedicated\", value = \"batch\", effect = \"NoSchedule\" }]",
                        "node_requirements = [{ key = \"karpenter.k8s.aws/instance-size\", operator = \"NotIn\", values = [\"metal\"] }]",
                        "uninstall_hook_image = \"registry.example.com/tools/kubectl:1.27.4\"")
                .poolsAndClasses();

        assertThat(settings.uninstallHookImage()).isEqualTo("registry.example.com/tools/kubectl:1.27.4");
        assertThat(settings.nodeClass("default").amiFamily()).isEqualTo(AmiFamily.AL2);
        assertThat(settings.nodeClass("default").discoveryTagKey()).isEqualTo("example.com/karpenter");
        assertThat(settings.nodeClass("default").discoveryTagValue()).isEqualTo("shared");
        PoolSettings pool = settings.pools().get(0);
        assertThat(pool.capacityTypes()).containsExactly("on-demand");
        assertThat(pool.architectures()).containsExactly("amd64", "arm64");
        assertThat(pool.instanceCategories()).isEmpty();
        assertThat(pool.instanceGenerationMin()).isEqualTo(5);
        assertThat(pool.cpuLimit()).isEqualTo(64);
        assertThat(pool.memoryLimit()).isEqualTo("256Gi");
        assertThat(pool.consolidation()).isFalse();
        assertThat(pool.ttlSecondsAfterEmpty()).contains(30);
        assertThat(pool.expireAfter()).isEqualTo("Never");
        assertThat(pool.labels()).containsExactly(Map.entry("team", "platform"));
        assertThat(pool.taints()).containsExactly(new NodeTaint("dedicated", "batch", "NoSchedule"));
        assertThat(pool.requirements())
                .containsExactly(new NodeRequirement("karpenter.k8s.aws/instance-size", "NotIn", List.of("metal")));
    }

    @Test
    void extraPoolsTakeWhatTheyDoNotSetFromTheTopLevel() {
        PoolsAndNodeClasses settings = config(
                        V1,
                        "cpu_limit = 200",
                        "consolidate_after = \"5m\"",
                        "node_labels = { team = \"platform\" }",
                        "node_pools = [{ name = \"arm\", architectures = [\"arm64\"], cpu_limit = 50,"
                                + " node_taints = [{ key = \"arch\", value = \"arm64\", effect = \"NoSchedule\" }] }]")
                .poolsAndClasses();

        assertThat(settings.pools()).extracting(PoolSettings::name).containsExactly("default", "arm");
        PoolSettings arm = settings.pools().get(1);
        assertThat(arm.architectures()).containsExactly("arm64");
        assertThat(arm.cpuLimit()).isEqualTo(50);
        assertThat(arm.taints()).containsExactly(new NodeTaint("arch", "arm64", "NoSchedule"));
        assertThat(arm.capacityTypes()).containsExactly("spot", "on-demand");
        assertThat(arm.consolidateAfter()).isEqualTo(Optional.of("5m"));
        assertThat(arm.labels()).containsExactly(Map.entry("team", "platform"));
        assertThat(settings.pools().get(0).cpuLimit()).isEqualTo(200);
        assertThat(settings.pools().get(0).taints()).isEmpty();
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                bad(
                        "unknown capacity type",
                        V1,
                        "capacity_types = [\"spot\", \"reserved-ish\"]",
                        "capacity_types must contain only one of \"spot\", \"on-demand\", \"reserved\", got \"reserved-ish\""),
                bad("no capacity type", V1, "capacity_types = []", "capacity_types must name at least one of"),
                bad(
                        "unknown architecture",
                        V1,
                        "architectures = [\"x86\"]",
                        "architectures must contain only \"amd64\" or \"arm64\""),
                bad("negative cpu limit", V1, "cpu_limit = -4", "cpu_limit must be at least 1, got -4"),
                bad("fractional cpu limit", V1, "cpu_limit = 1.5", "cpu_limit must be a whole number"),
                bad(
                        "negative memory limit",
                        V1,
                        "memory_limit = \"-10Gi\"",
                        "memory_limit must be a Kubernetes quantity greater than zero such as \"1000Gi\", got \"-10Gi\""),
                bad(
                        "memory limit unit",
                        V1,
                        "memory_limit = \"10GB\"",
                        "memory_limit must be a Kubernetes quantity greater than zero"),
                bad(
                        "generation zero",
                        V1,
                        "instance_generation_min = 0",
                        "instance_generation_min must be at least 1, got 0"),
                bad(
                        "bad category",
                        V1,
                        "instance_categories = [\"C5\"]",
                        "instance_categories must hold EC2 instance categories"),
                bad(
                        "bad expiry",
                        V1,
                        "expire_after = \"30d\"",
                        "expire_after must be a duration greater than zero in h, m and s"),
                bad(
                        "bad consolidate after",
                        V1,
                        "consolidate_after = \"soon\"",
                        "consolidate_after must be a duration"),
                bad(
                        "operator Karpenter does not accept",
                        V1,
                        "node_requirements = [{ key = \"kubernetes.io/arch\", operator = \"Like\", values = [\"amd64\"] }]",
                        "node_requirements[0]: operator must be one of In, NotIn, Exists, DoesNotExist, Gt, Lt (the operators Karpenter accepts), got \"Like\""),
                bad(
                        "In without values",
                        V0,
                        "node_requirements = [{ key = \"kubernetes.io/arch\", operator = \"In\" }]",
                        "node_requirements[0]: values must not be empty with operator In"),
                bad(
                        "Exists with values",
                        V0,
                        "node_requirements = [{ key = \"gpu\", operator = \"Exists\", values = [\"x\"] }]",
                        "node_requirements[0]: values must be empty with operator Exists"),
                bad(
                        "Gt with a word",
                        V1,
                        "node_requirements = [{ key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Gt\", values = [\"four\"] }]",
                        "node_requirements[0]: values must be one non-negative whole number with operator Gt"),
                bad(
                        "requirement without key",
                        V1,
                        "node_requirements = [{ operator = \"Exists\" }]",
                        "node_requirements[0]: key is required"),
                bad(
                        "requirement typo",
                        V1,
                        "node_requirements = [{ key = \"a\", operator = \"Exists\", value = [\"b\"] }]",
                        "node_requirements[0]: unknown setting value"),
                bad(
                        "bad taint effect",
                        V1,
                        "node_taints = [{ key = \"dedicated\", effect = \"NoRun\" }]",
                        "node_taints[0]: effect must be one of NoSchedule, PreferNoSchedule, NoExecute, got \"NoRun\""),
                bad(
                        "bad label key",
                        V1,
                        "node_labels = { \"-team\" = \"x\" }",
                        "node_labels must hold Kubernetes label keys"),
                bad(
                        "bad label value",
                        V1,
                        "node_labels = { team = \"a b\" }",
                        "node_labels.team must be a Kubernetes label value"),
                bad(
                        "consolidation with ttlSecondsAfterEmpty on 0.x",
                        V0,
                        "ttl_seconds_after_empty = 30",
                        "ttl_seconds_after_empty cannot be combined with consolidation = true: the Provisioner webhook rejects both"),
                bad(
                        "ttlSecondsAfterEmpty on 1.x",
                        V1,
                        "consolidation = false\nttl_seconds_after_empty = 30",
                        "ttl_seconds_after_empty applies to Karpenter 0.30 to 0.32 (v1alpha5 Provisioners) only; with "
                                + TestConfigs.V1 + " set consolidation = false and consolidate_after"),
                bad(
                        "negative ttlSecondsAfterEmpty",
                        V0,
                        "consolidation = false\nttl_seconds_after_empty = -1",
                        "ttl_seconds_after_empty must not be negative, got -1"),
                bad(
                        "consolidateAfter on 0.x",
                        V0,
                        "consolidate_after = \"5m\"",
                        "consolidate_after applies to Karpenter 0.32 and later only; with v0.30.0 use consolidation = false and ttl_seconds_after_empty"),
                bad(
                        "AL2023 on 0.x",
                        V0,
                        "ami_family = \"AL2023\"",
                        "ami_family \"AL2023\" applies to Karpenter 0.35 and later only; with v0.30.0 use one of \"Bottlerocket\","
                                + " \"AL2\", \"Windows2019\", \"Windows2022\", \"Custom\""),
                bad(
                        "uninstall hook on 1.x",
                        V1,
                        "uninstall_hook_image = \"kubectl:1\"",
                        "uninstall_hook_image applies to Karpenter 0.30 to 0.32 (v1alpha5 Provisioners) only; with "
                                + TestConfigs.V1 + " deleting the EC2NodeClass waits for the nodes itself"),
                bad(
                        "bad uninstall hook image",
                        V0,
                        "uninstall_hook_image = \"kubectl latest\"",
                        "uninstall_hook_image must be a container image reference"),
                bad("empty discovery value", V1, "discovery_tag_value = \"\"", "discovery_tag_value must not be empty"),
                bad(
                        "the pool default written twice",
                        V1,
                        "node_pools = [{ name = \"default\" }]\nnode_pool_spec = { weight = 10 }",
                        "node_pools[0]: name \"default\" makes the entry the pool \"default\", which node_pool_spec also"
                                + " writes: move node_pool_spec into the entry's spec"),
                bad(
                        "no pool at all",
                        V1,
                        "default_node_pool = false",
                        "default_node_pool = false with no node_pools declares no pool"),
                bad(
                        "a spec for the pool default left out",
                        V1,
                        "default_node_pool = false\nnode_pool_spec = { weight = 10 }",
                        "node_pool_spec writes the pool \"default\", which default_node_pool = false leaves out"),
                bad(
                        "extra pool bad name",
                        V1,
                        "node_pools = [{ name = \"GPU\" }]",
                        "node_pools[0]: name must be a Kubernetes name"),
                bad(
                        "extra pool without name",
                        V1,
                        "node_pools = [{ cpu_limit = 4 }]",
                        "node_pools[0]: name is required"),
                bad(
                        "duplicate extra pools",
                        V1,
                        "node_pools = [{ name = \"a\" }, { name = \"a\" }]",
                        "node_pools[1]: name \"a\" is used by another pool"),
                bad(
                        "unknown key in extra pool",
                        V1,
                        "node_pools = [{ name = \"a\", cpu_limits = 4 }]",
                        "node_pools[0]: unknown setting cpu_limits"),
                bad(
                        "bad setting in extra pool",
                        V1,
                        "node_pools = [{ name = \"a\", cpu_limit = -1 }]",
                        "node_pools[0]: cpu_limit must be at least 1, got -1"),
                bad(
                        "version rule in extra pool",
                        V0,
                        "node_pools = [{ name = \"a\", ttl_seconds_after_empty = 60 }]",
                        "node_pools \"a\": ttl_seconds_after_empty cannot be combined with consolidation = true"),
                bad(
                        "ami_version on 0.x",
                        V0,
                        "ami_version = \"v20240625\"",
                        "ami_version applies to Karpenter 1.x (v1 EC2NodeClass alias) only; with v0.30.0"),
                bad(
                        "ami_version in Bottlerocket's format for AL2023",
                        V1,
                        "ami_family = \"AL2023\"\nami_version = \"v1.10.0\"",
                        "ami_version must be \"latest\" or a release of the AL2023 AMIs such as \"v20240625\", got \"v1.10.0\""),
                bad(
                        "ami_version in AL2023's format for Bottlerocket",
                        V1,
                        "ami_version = \"v20240625\"",
                        "ami_version must be \"latest\" or a release of the Bottlerocket AMIs such as \"v1.10.0\""),
                bad(
                        "node tag Karpenter sets",
                        V1,
                        "tags = { \"karpenter.sh/nodepool\" = \"x\" }",
                        "tags key \"karpenter.sh/nodepool\" is reserved by Karpenter (\"karpenter.sh/nodepool\")"),
                bad(
                        "cluster ownership tag",
                        V0,
                        "tags = { \"kubernetes.io/cluster/demo\" = \"owned\" }",
                        "tags key \"kubernetes.io/cluster/demo\" is reserved by Karpenter (keys starting with \"kubernetes.io/cluster\")"),
                bad(
                        "0.x provisioner tag",
                        V0,
                        "tags = { \"karpenter.sh/provisioner-name\" = \"x\" }",
                        "tags key \"karpenter.sh/provisioner-name\" is reserved by Karpenter"),
                bad(
                        "EKS cluster tag",
                        V1,
                        "tags = { \"eks:eks-cluster-name\" = \"demo\" }",
                        "tags key \"eks:eks-cluster-name\" is reserved by Karpenter"));
    }

    @Test
    void pinsTheAmiReleaseInTheFormatOfItsFamily() {
        assertThat(config(V1, "ami_version = \"v1.10.0\"")
                        .poolsAndClasses()
                        .nodeClass("default")
                        .amiVersion())
                .isEqualTo("v1.10.0");
        assertThat(config(V1, "ami_family = \"AL2023\"", "ami_version = \"v20240625\"")
                        .poolsAndClasses()
                        .nodeClass("default")
                        .amiVersion())
                .isEqualTo("v20240625");
        assertThat(config(V1, "ami_version = \"latest\"")
                        .poolsAndClasses()
                        .nodeClass("default")
                        .amiVersion())
                .isEqualTo("latest");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void rejectsBadPoolSettingsWithOneLineNamingTheSetting(String caseName, String tfvarsText, String expectedMessage) {
        assertRejected(tfvarsText, expectedMessage);
    }

    private static Arguments bad(String caseName, String chartVersion, String lines, String message) {
        return Arguments.of(caseName, tfvars(chartVersion, lines), message);
    }
}
