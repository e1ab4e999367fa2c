package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
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

    private static void assertRejected(KarpenterRelease release, String line, String message) {
        assertThatThrownBy(() -> config(release.chartVersion(), line))
                .isInstanceOf(ConfigException.class)
                .hasMessage(message);
    }
}
