package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.versions.ApiGeneration;
import dev.platform.karpenter.versions.KarpenterMinor;
import dev.platform.karpenter.versions.KarpenterRelease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capacity types of pools: "reserved" from the releases that have capacity reservations only, wherever it is
 * written, and what a pool may launch read from its settings and its spec's requirements alike.
 */
@KernelOnlyThroughSynthesized
class CapacityTypesTest {
    @TempDir
    Path dir;

    /** The newest patch of every supported minor. */
    static Stream<KarpenterRelease> releases() {
        return KarpenterMinor.all().stream().map(KarpenterMinor::newestRelease);
    }

    private static String firstWithReservations() {
        KarpenterMinor first = KarpenterMinor.Feature.CAPACITY_RESERVATIONS.introducedBy();
        return first.major() + "." + first.minor();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void reservedIsACapacityTypeFromTheReleasesWithReservationsAndRefusedInOneLineElsewhere(KarpenterRelease release)
            throws IOException {
        Path file = dir.resolve("c1.tfvars");
        Files.writeString(
                file, TestConfigs.tfvars(release.chartVersion(), "capacity_types = [\"reserved\", \"on-demand\"]"));
        if (release.hasCapacityReservations()) {
            assertThat(ConfigLoader.load(file)
                            .get(0)
                            .poolsAndClasses()
                            .pools()
                            .get(0)
                            .capacityTypes())
                    .containsExactly("reserved", "on-demand");
        } else {
            assertThatThrownBy(() -> ConfigLoader.load(file))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage(file + ": capacity_types \"reserved\" applies to Karpenter " + firstWithReservations()
                            + " and later only; with " + release + " use \"spot\" or \"on-demand\"");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void aPoolEntrysReservedAndARequirementOfItsSpecAreRefusedAlikeWithoutReservations(KarpenterRelease release) {
        if (release.hasCapacityReservations()) {
            return;
        }
        String refused = "capacity type \"reserved\" applies to Karpenter " + firstWithReservations()
                + " and later only; with " + release + " use \"spot\" or \"on-demand\"";
        assertRejected(
                release,
                "node_pools = [{ name = \"batch\", capacity_types = [\"reserved\"] }]",
                "node_pools \"batch\": capacity_types \"reserved\" applies to Karpenter " + firstWithReservations()
                        + " and later only; with " + release + " use \"spot\" or \"on-demand\"");
        assertRejected(
                release,
                "node_requirements = [{ key = \"karpenter.sh/capacity-type\", operator = \"NotIn\", values = [\"reserved\"] }]",
                "node_requirements[0].values: " + refused);
        String requirementsPath =
                release.apiGeneration() == ApiGeneration.V1ALPHA5 ? "requirements" : "template.spec.requirements";
        assertRejected(
                release,
                "node_pools = [{ name = \"batch\", spec = " + nested(requirementsPath, "reserved") + " }]",
                "node_pools[0].spec." + requirementsPath + "[0].values: " + refused);
    }

    /** The spec {@code { a = { b = { requirements = [<capacity type In value>] } } }} for {@code path} "a.b.requirements". */
    private static String nested(String path, String capacityType) {
        String requirement =
                "[{ key = \"karpenter.sh/capacity-type\", operator = \"In\", values = [\"" + capacityType + "\"] }]";
        String[] keys = path.split("\\.");
        String value = requirement;
        for (int i = keys.length - 1; i >= 0; i--) {
            value = "{ " + keys[i] + " = " + value + " }";
        }
        return value;
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
        PoolsAndNodeClasses pools = config(
                        V1,
                        "capacity_types = [\"on-demand\"]",
                        "node_pools = [{ name = \"batch\", spec = { template = { spec = { requirements = [{ key ="
                                + " \"karpenter.sh/capacity-type\", operator = \"" + operator + "\", values = ["
                                + values + "] }] } } } }]")
                .poolsAndClasses();

        assertThat(pools.allowsSpot()).isEqualTo(spot);
        assertThat(pools.allowsReserved()).isEqualTo(reserved);
    }

    @Test
    void typedSettingsAloneDecideUntilASpecReplacesTheRequirements() {
        assertThat(config(V1).poolsAndClasses().allowsSpot()).isTrue();
        assertThat(config(V1).poolsAndClasses().allowsReserved()).isFalse();
        assertThat(config(V1, "capacity_types = [\"on-demand\"]")
                        .poolsAndClasses()
                        .allowsSpot())
                .isFalse();
        assertThat(config(V1, "capacity_types = [\"reserved\"]")
                        .poolsAndClasses()
                        .allowsReserved())
                .isTrue();
        // node_requirements on the label narrow capacity_types (requirements on one key are ANDed).
        assertThat(config(
                                V1,
                                "node_requirements = [{ key = \"karpenter.sh/capacity-type\", operator = \"NotIn\","
                                        + " values = [\"spot\"] }]")
                        .poolsAndClasses()
                        .allowsSpot())
                .isFalse();
        // A spec's requirements without the label leave every capacity type open.
        assertThat(config(
                                V1,
                                "capacity_types = [\"on-demand\"]",
                                "node_pool_spec = { template = { spec = { requirements = [{ key ="
                                        + " \"kubernetes.io/arch\", operator = \"In\", values = [\"arm64\"] }] } } }")
                        .poolsAndClasses()
                        .allowsSpot())
                .isTrue();
        // A spec that leaves the requirements alone leaves the typed ones.
        assertThat(config(V1, "capacity_types = [\"on-demand\"]", "node_pool_spec = { weight = 10 }")
                        .poolsAndClasses()
                        .allowsSpot())
                .isFalse();
    }

    private static void assertRejected(KarpenterRelease release, String line, String message) {
        assertThatThrownBy(() -> config(release.chartVersion(), line))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }
}
