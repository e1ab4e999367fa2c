package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The synth's pool checks: one line naming the pool and the requirement at fault. */
@KernelOnlyThroughSynthesized
class PoolChecksTest {
    private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();

    private void check(String... lines) {
        PoolChecks.check(
                TestConfigs.config(TestConfigs.V1, lines), new PrintStream(warnings, true, StandardCharsets.UTF_8));
    }

    private String warned() {
        return warnings.toString(StandardCharsets.UTF_8);
    }

    @Test
    void refusesAPoolMatchingNoInstanceTypeNamingTheRequirement() {
        assertThatThrownBy(() -> check("node_pools = [{ name = \"gpu\", node_requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-gpu-manufacturer\", operator = \"In\", values = [\"nvidia\"]"
                        + " }] }]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("pool \"gpu\" matches no instance type: requirement"
                        + " karpenter.k8s.aws/instance-gpu-manufacturer In [nvidia] (template.spec.requirements[");
    }

    @Test
    void refusesAWindowsNodeClassUnderAnArmOnlyPool() {
        assertThatThrownBy(() -> check(
                        "node_class_spec = { amiSelectorTerms = [{ alias = \"windows2022@latest\" }] }",
                        "architectures = [\"arm64\"]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "pool \"default\" matches no instance type: requirement kubernetes.io/arch In [arm64]");
    }

    @Test
    void refusesMinValuesTheMatchingTypesCannotMeet() {
        assertThatThrownBy(() -> check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\"],"
                        + " minValues = 3 }] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("pool \"default\": requirement karpenter.k8s.aws/instance-family In [c7a, m7a] minValues 3"
                        + " (template.spec.requirements[0]) cannot be met: the matching types have 2 values of"
                        + " karpenter.k8s.aws/instance-family");
    }

    @Test
    void refusesLimitsBelowOneNode() {
        assertThatThrownBy(() -> check("instance_categories = [\"r\"]", "memory_limit = \"4Gi\""))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("pool \"default\": limits [cpu, memory] (spec.limits) are below one node of"
                        + " its smallest matching type");
    }

    /** Zero limits pause a pool without deleting it, which would drain its nodes. */
    @Test
    void zeroLimitsPauseAPoolWithAWarning() {
        check("node_pool_spec = { limits = { cpu = \"0\", memory = \"0\" } }");
        assertThat(warned())
                .startsWith("warning: demo: pool \"default\": its limits [cpu, memory] (spec.limits) are zero: it"
                        + " launches no node while they stay so");
        warnings.reset();
        check("node_pool_spec = { limits = { cpu = \"0\", memory = \"1000Gi\" } }");
        assertThat(warned()).as("one zero limit pauses it as well").contains("its limits [cpu] (spec.limits) are zero");
        warnings.reset();
        check("node_pool_spec = { limits = { cpu = \"1000\", memory = \"1000Gi\", nodes = \"0\" } }");
        assertThat(warned()).contains("its limits [nodes] (spec.limits) are zero");
        assertThatThrownBy(
                        () -> check(
                                "node_pool_spec = { limits = { cpu = \"500m\", memory = \"1000Gi\", \"nvidia.com/gpu\" = \"0\" } }"))
                .as("a zero GPU limit does not hide a cpu limit below one node")
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("are below one node of its smallest matching type");
        assertThatThrownBy(() -> check("node_pool_spec = { limits = { cpu = \"1\", memory = \"1Gi\" } }"))
                .as("limits above zero yet below one node: a mistake")
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("are below one node of its smallest matching type");
    }

    @Test
    void warnsOfMaxPodsAboveTheInterfacesAndSynthGoesOn() {
        check("node_class_spec = { kubelet = { maxPods = 110 } }");
        assertThat(warned())
                .startsWith("warning: demo: pool \"default\": kubelet maxPods 110 of node class \"default\" is above"
                        + " what the network interfaces address on ")
                .contains("unless the VPC CNI runs with prefix delegation");
    }

    /** With settings.minValuesPolicy BestEffort Karpenter relaxes minValues it cannot meet: a warning, not a refusal. */
    @Test
    void unmetMinValuesAreAWarningWhereKarpenterRelaxesThem() {
        check(
                "controller_values = { settings = { minValuesPolicy = \"BestEffort\" } }",
                "node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\"],"
                        + " minValues = 3 }] } } }");
        assertThat(warned())
                .contains("requirement karpenter.k8s.aws/instance-family In [c7a, m7a] minValues 3")
                .contains("settings.minValuesPolicy BestEffort: Karpenter relaxes it");
    }

    /** Without a capacity-type requirement a NodePool allows spot (no webhook defaults it since v1beta1). */
    @Test
    void warnsOfFewSpotTypesWhereNoRequirementNamesACapacityType() {
        check(
                "controller_values = { settings = { featureGates = { spotToSpotConsolidation = true } } }",
                "node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] }] } } }");
        assertThat(warned()).contains("pool \"default\" allows spot with spot-to-spot consolidation on but matches");
    }

    /**
     * The defaults follow every Bottlerocket release (ami_version "latest") under the CRD's default budget of 10%,
     * and expire nodes after 720h without a termination grace period: two warnings, one line each, synth goes on.
     */
    @Test
    void defaultSettingsWarnOfTheirAmiAndTheirExpiry() {
        check();
        assertThat(warned().lines().toList())
                .containsExactly(
                        "warning: demo: pool \"default\": its node class \"default\" follows new AMIs (ami_version ="
                                + " \"latest\", alias \"bottlerocket@latest\") and its budgets allow Drifted: each AMI"
                                + " AWS publishes replaces every node without any change here (pin the AMI:"
                                + " docs/guides/disruption.md)",
                        "warning: demo: pool \"default\": expire_after (default) = \"720h\" without"
                                + " node_pool_spec.template.spec.terminationGracePeriod: expiry replaces nodes whatever"
                                + " the budgets say, and a pod disruption budget or do-not-disrupt pod can hold an"
                                + " expired node forever");
    }

    /** A pinned AMI and a termination grace period: nothing to say. */
    @Test
    void pinnedAmiAndGracePeriodPassSilently() {
        check(
                "ami_version = \"v1.20.0\"",
                "node_pool_spec = { template = { spec = { terminationGracePeriod = \"24h\" } } }");
        assertThat(warned()).isEmpty();
    }

    /** A Drifted budget of zero at every minute: no AMI warning (nothing rolls), but changes never roll out. */
    @Test
    void budgetsThatNeverAllowDriftWarnThatChangesNeverRollOut() {
        check(
                "expire_after = \"Never\"",
                "node_pool_spec = { disruption = { budgets = [{ nodes = \"0\", reasons = [\"Drifted\"] }] } }");
        assertThat(warned().lines().toList())
                .singleElement()
                .asString()
                .startsWith("warning: demo: pool \"default\": node_pool_spec.disruption.budgets allow no Drifted"
                        + " disruption at any minute of the seven days from ")
                .endsWith(": node class and pool changes never roll out");
    }

    /** One node at a time, in a window of an hour a week: the 540 nodes the limits allow take far more than a week. */
    @Test
    void warnsWhereARolloutOutlastsTheWeek() {
        check(
                "ami_version = \"v1.20.0\"",
                "node_pool_spec = { template = { spec = { terminationGracePeriod = \"24h\" } }, disruption = { budgets = [{ nodes = \"1\" }, { nodes = \"0\", schedule ="
                        + " \"0 1 * * 1\", duration = \"167h\" }] } }");
        assertThat(warned())
                .contains("warning: demo: pool \"default\": replacing its 540 nodes (max nodes) for drift at 10 minutes"
                        + " each takes more than seven days within the windows of node_pool_spec.disruption.budgets");
    }
}
