package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.catalog.InstanceCatalogue;
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
    /** How warnings name the shipped catalogue: its upstream tag and the date of its prices. */
    private static final String CATALOGUE = PoolPreview.catalogueName(InstanceCatalogue.shipped());

    private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();

    private void check(String... lines) {
        PoolChecks.check(
                TestConfigs.config(TestConfigs.V1, lines), new PrintStream(warnings, true, StandardCharsets.UTF_8));
    }

    private String warned() {
        return warnings.toString(StandardCharsets.UTF_8);
    }

    /**
     * The catalogue is one snapshot: a pool it finds no type for is a warning naming the catalogue and what it does not
     * know, and synth goes on (NVIDIA GPUs under the inherited c/m/r categories).
     */
    @Test
    void aPoolTheCatalogueFindsNoTypeForIsAWarning() {
        check("node_pools = [{ name = \"gpu\", node_requirements = [{ key ="
                + " \"karpenter.k8s.aws/instance-gpu-manufacturer\", operator = \"In\", values = [\"nvidia\"] }] }]");
        assertThat(warned())
                .contains("warning: demo: pool \"gpu\" matches no instance type in the catalogue"
                        + " (" + CATALOGUE + "): requirement"
                        + " karpenter.k8s.aws/instance-gpu-manufacturer In [nvidia] (template.spec.requirements[");
    }

    /**
     * Upstream's concept pages write GPU pools on p3.8xlarge and p3.16xlarge and on family p3, which the catalogue no
     * longer lists: they synthesize, with a warning naming the catalogue's date and the values it does not know.
     */
    @Test
    void upstreamsP3PoolsSynthesizeWithAWarning() {
        check("node_pools = [{ name = \"gpu\", spec = { template = { spec = { requirements = [{ key ="
                + " \"node.kubernetes.io/instance-type\", operator = \"In\", values = [\"p3.8xlarge\","
                + " \"p3.16xlarge\"] }], taints = [{ key = \"nvidia.com/gpu\", value = \"true\", effect ="
                + " \"NoSchedule\" }] } } } }]");
        assertThat(warned())
                .contains("pool \"gpu\" matches no instance type in the catalogue (" + CATALOGUE + ")")
                .contains("values the catalogue does not know: node.kubernetes.io/instance-type [p3.8xlarge,"
                        + " p3.16xlarge]");
        warnings.reset();
        check("node_pools = [{ name = \"gpu\", spec = { template = { spec = { requirements = [{ key ="
                + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"p3\"] }] } } } }]");
        assertThat(warned()).contains("values the catalogue does not know: karpenter.k8s.aws/instance-family [p3]");
    }

    @Test
    void refusesAWindowsNodeClassUnderAnArmOnlyPool() {
        assertThatThrownBy(() -> check(
                        "node_class_spec = { amiSelectorTerms = [{ alias = \"windows2022@latest\" }] }",
                        "architectures = [\"arm64\"]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "pool \"default\" matches no instance type: requirement kubernetes.io/arch In [arm64]")
                .hasMessageContaining("admits none of the architectures its node class runs (windows, amd64)");
    }

    /** What no instance type could ever meet, whatever the catalogue: refused, in one line naming the requirements. */
    @Test
    void refusesRequirementsNoTypeCouldEverMeet() {
        assertThatThrownBy(() -> check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\"] }, { key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"NotIn\", values = [\"c7a\"] }] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("pool \"default\": requirements karpenter.k8s.aws/instance-family In [c7a]"
                        + " (template.spec.requirements[0]) and karpenter.k8s.aws/instance-family NotIn [c7a]"
                        + " (template.spec.requirements[1]) leave no value of karpenter.k8s.aws/instance-family: no"
                        + " node can ever meet them");
        assertThatThrownBy(() -> check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-cpu\", operator = \"Gt\", values = [\"8\"] }, { key ="
                        + " \"karpenter.k8s.aws/instance-cpu\", operator = \"Lt\", values = [\"8\"] }] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("leave no whole number for karpenter.k8s.aws/instance-cpu");
        assertThatThrownBy(() -> check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\","
                        + " \"r7a\"], minValues = 3 }, { key = \"karpenter.k8s.aws/instance-family\", operator ="
                        + " \"NotIn\", values = [\"r7a\"] }] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("asks for 3 values of karpenter.k8s.aws/instance-family but the requirements"
                        + " allow only 2 [c7a, m7a]");
    }

    @Test
    void refusesMinValuesAboveTheValuesListed() {
        assertThatThrownBy(() -> check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\"],"
                        + " minValues = 3 }] } } }"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("pool \"default\": requirement karpenter.k8s.aws/instance-family In [c7a, m7a] minValues 3"
                        + " (template.spec.requirements[0]) asks for 3 values of karpenter.k8s.aws/instance-family but"
                        + " lists 2: no node can ever meet it");
    }

    /** minValues the catalogue's types cannot meet: a warning (a type the catalogue does not know may meet it). */
    @Test
    void minValuesTheCatalogueCannotMeetAreAWarning() {
        check("node_pool_spec = { template = { spec = { requirements = [{ key ="
                + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\", \"x9z\"],"
                + " minValues = 3 }] } } }");
        assertThat(warned())
                .contains("warning: demo: pool \"default\": requirement karpenter.k8s.aws/instance-family In [c7a, m7a,"
                        + " x9z] minValues 3 (template.spec.requirements[0]) cannot be met in the catalogue"
                        + " (" + CATALOGUE + "): the matching types have 2"
                        + " values of karpenter.k8s.aws/instance-family (Karpenter launches nothing for it unless it"
                        + " finds more types)");
    }

    @Test
    void limitsBelowOneNodeOfTheCataloguesTypesAreAWarning() {
        check("instance_categories = [\"r\"]", "memory_limit = \"4Gi\"");
        assertThat(warned())
                .contains("warning: demo: pool \"default\": limits [cpu, memory] (spec.limits) are below one node of"
                        + " its smallest matching type in the catalogue");
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
        warnings.reset();
        check("node_pool_spec = { limits = { cpu = \"500m\", memory = \"1000Gi\", \"nvidia.com/gpu\" = \"0\" } }");
        assertThat(warned())
                .as("a zero GPU limit does not hide a cpu limit below one node")
                .contains("are below one node of its smallest matching type");
        warnings.reset();
        check("node_pool_spec = { limits = { cpu = \"1\", memory = \"1Gi\" } }");
        assertThat(warned())
                .as("limits above zero yet below one node: likely a mistake")
                .contains("are below one node of its smallest matching type");
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
                        + " \"karpenter.k8s.aws/instance-family\", operator = \"In\", values = [\"c7a\", \"m7a\","
                        + " \"x9z\"], minValues = 3 }] } } }");
        assertThat(warned())
                .contains("requirement karpenter.k8s.aws/instance-family In [c7a, m7a, x9z] minValues 3")
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
