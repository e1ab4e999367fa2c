package dev.platform.karpenter.preview;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.catalog.NodeClassOffer;
import dev.platform.karpenter.catalog.NodeClassOffer.AmiKind;
import dev.platform.karpenter.testing.TestConfigs;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** What the evaluation reads of a rendered pool is what the rest of the project reads of it. */
class PoolFactsTest {
    /** The first pool of the tests' base configuration at the newest release, with {@code lines} added. */
    private static PoolFacts firstPool(String... lines) {
        return PoolFacts.of(TestConfigs.config(TestConfigs.V1, lines)).get(0);
    }

    /** v1beta1 and v1 have no webhook adding on-demand: a pool without the requirement may launch spot. */
    @Test
    void aPoolWithoutACapacityTypeRequirementAllowsEveryType() {
        PoolFacts pool = firstPool("node_pool_spec = { template = { spec = { requirements = [{ key ="
                + " \"karpenter.k8s.aws/instance-category\", operator = \"In\", values = [\"c\"] }] } } }");

        assertThat(pool.capacityTypes()).containsExactlyInAnyOrder("spot", "on-demand", "reserved");
        assertThat(pool.allowsSpot()).isTrue();
        // a Provisioner carries the on-demand requirement its webhook adds
        assertThat(PoolFacts.of(TestConfigs.config(
                                "v0.31.5",
                                "node_pool_spec = { requirements = [{ key = \"karpenter.k8s.aws/instance-category\","
                                        + " operator = \"In\", values = [\"c\"] }] }"))
                        .get(0)
                        .capacityTypes())
                .containsExactly("on-demand");
    }

    /** Karpenter's formulas follow amiFamily (Custom), not the alias, whose AMIs the nodes boot. */
    @Test
    void aCustomClassWithAnAliasIsEvaluatedAsCustomLinux() {
        PoolFacts pool = firstPool("node_class_spec = { amiFamily = \"Custom\", amiSelectorTerms = [{ alias ="
                + " \"bottlerocket@latest\" }], userData = \"x\" }");

        assertThat(pool.nodeClass().family()).isEqualTo(AmiKind.CUSTOM);
        assertThat(pool.nodeClass().os()).isEqualTo("linux");
    }

    /** The controller's settings and the node class's interfaces reach what the evaluation computes pods and memory from. */
    @Test
    void theControllersReservedEnisAndOverheadAndTheClassesEfaOnlyInterfacesAreRead() {
        PoolFacts pool = firstPool(
                "controller_values = { settings = { reservedENIs = \"1\", vmMemoryOverheadPercent = 0.1 } }",
                "node_class_spec = { networkInterfaces = [{ networkCardIndex = 0, deviceIndex = 0,"
                        + " interfaceType = \"interface\" }, { networkCardIndex = 0, deviceIndex = 1,"
                        + " interfaceType = \"efa-only\" }] }");

        assertThat(pool.nodeClass().interfaces()).isEqualTo(new NodeClassOffer.UnusableInterfaces(1, 1));
        assertThat(pool.nodeClass().vmMemoryOverheadPercent()).isEqualByComparingTo("0.1");
    }

    /**
     * The volume Karpenter counts as ephemeral storage: the mapping marked rootVolume, else the family's device, else
     * the family's default.
     */
    @Test
    void theNodeClassesVolumesGiveTheEphemeralStorage() {
        BigDecimal gi = BigDecimal.valueOf(1L << 30);
        assertThat(firstPool().nodeClass().disk())
                .isEqualTo(new NodeClassOffer.Disk(gi.multiply(BigDecimal.valueOf(20)), false));
        PoolFacts root =
                firstPool("node_class_spec = { instanceStorePolicy = \"RAID0\", blockDeviceMappings = [{ deviceName ="
                        + " \"/dev/xvdb\", ebs = { volumeSize = \"500Gi\" } }, { deviceName = \"/dev/xvda\","
                        + " rootVolume = true, ebs = { volumeSize = \"100Gi\" } }] }");
        assertThat(root.nodeClass().disk())
                .isEqualTo(new NodeClassOffer.Disk(gi.multiply(BigDecimal.valueOf(100)), true));
        // The tests' base configuration is Bottlerocket: its pods' storage is the data volume /dev/xvdb, not the root.
        PoolFacts device = firstPool(
                "node_class_spec = { blockDeviceMappings = [{ deviceName = \"/dev/xvda\", ebs = { volumeSize ="
                        + " \"60Gi\" } }, { deviceName = \"/dev/xvdb\", ebs = { volumeSize = \"80Gi\" } }] }");
        assertThat(device.nodeClass().family()).isEqualTo(AmiKind.BOTTLEROCKET);
        assertThat(device.nodeClass().disk().volume()).isEqualByComparingTo(gi.multiply(BigDecimal.valueOf(80)));
    }
}
