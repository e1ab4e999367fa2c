package dev.platform.karpenter.nodepools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * node_overlays end to end: the NodeOverlay objects reach the pools' Helm release, the controller's NodeOverlay
 * feature gate is turned on unless controller_values sets it, the release's CRD (with CEL) checks each spec, and a
 * release without the kind refuses the setting.
 */
@KernelOnlyThroughSynthesized
class NodeOverlaysTest {
    static final String OVERLAYS = "node_overlays = [{ name = \"savings-plan\", metadata = { labels = { team ="
            + " \"platform\" } }, spec = { weight = 10, requirements = [{ key = \"karpenter.k8s.aws/instance-family\","
            + " operator = \"In\", values = [\"c7a\"] }], priceAdjustment = \"-50%\", capacity = {"
            + " \"example.com/fuse\" = \"1\" } } }]";

    private static final KarpenterRelease NEWEST = KarpenterRelease.newest();
    /** The newest release without NodeOverlay. */
    private static final KarpenterRelease BEFORE = KarpenterMinor.all().stream()
            .map(KarpenterMinor::newestRelease)
            .filter(release ->
                    release.apiGeneration() == NEWEST.apiGeneration() && !AddOnKind.NODE_OVERLAY.servedBy(release))
            .reduce((first, second) -> second)
            .orElseThrow();

    private static final ClusterConfig OVERLAID = config("overlaid", OVERLAYS);
    private static final ClusterConfig USER_GATE = config(
            "usergate", OVERLAYS, "controller_values = { settings = { featureGates = { nodeOverlay = false } } }");
    private static final ClusterConfig PLAIN = config("plain");
    private static final Synthesized APP = Synthesized.of(OVERLAID, USER_GATE, PLAIN);

    private static ClusterConfig config(String name, String... lines) {
        ClusterConfig config = TestConfigs.configFor(name, "us-west-2", NEWEST.chartVersion(), lines);
        SpecCheck.requireValid(config);
        return config;
    }

    private static List<JsonNode> poolObjects(ClusterConfig config) {
        return CapacityReservationsTest.poolObjects(APP, config);
    }

    private static JsonNode controllerGates(ClusterConfig config) {
        return CapacityReservationsTest.controllerValues(APP, config).at("/settings/featureGates");
    }

    @Test
    void overlaysAreAppliedBesideThePoolsAsWritten() {
        List<JsonNode> overlays = poolObjects(OVERLAID).stream()
                .filter(object -> object.path("kind").asText().equals("NodeOverlay"))
                .toList();
        assertThat(overlays).hasSize(1);
        JsonNode overlay = overlays.get(0);
        assertThat(overlay.path("apiVersion").asText()).isEqualTo("karpenter.sh/v1alpha1");
        assertThat(overlay.at("/metadata/name").asText()).isEqualTo("savings-plan");
        assertThat(overlay.at("/metadata/labels/team").asText()).isEqualTo("platform");
        assertThat(overlay.at("/spec/weight").asInt()).isEqualTo(10);
        assertThat(overlay.at("/spec/weight").isIntegralNumber()).isTrue();
        assertThat(overlay.at("/spec/priceAdjustment").asText()).isEqualTo("-50%");
        assertThat(overlay.at("/spec/capacity/example.com~1fuse").asText()).isEqualTo("1");
        assertThat(poolObjects(PLAIN))
                .noneMatch(object -> object.path("kind").asText().equals("NodeOverlay"));
    }

    @Test
    void theFeatureGateIsTurnedOnUnlessControllerValuesSetsIt() {
        assertThat(controllerGates(OVERLAID).path("nodeOverlay").booleanValue()).isTrue();
        assertThat(controllerGates(USER_GATE).path("nodeOverlay").isBoolean()).isTrue();
        assertThat(controllerGates(USER_GATE).path("nodeOverlay").booleanValue())
                .as("the user's word stands")
                .isFalse();
        assertThat(controllerGates(PLAIN).path("nodeOverlay").isMissingNode()).isTrue();
    }

    @Test
    void theReleasesCrdChecksEachSpec() {
        assertThatThrownBy(() -> config(
                        "both",
                        "node_overlays = [{ name = \"both\", spec = { requirements = [], price = \"1\","
                                + " priceAdjustment = \"-1%\" } }]"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("node_overlays[0].spec")
                .hasMessageContaining("(NodeOverlay, Karpenter " + NEWEST + ")");
        assertThatThrownBy(() -> config("odd", "node_overlays = [{ name = \"odd\", spec = {}, colour = \"red\" }]"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("node_overlays[0]: unknown setting colour (an entry has name, spec and metadata)");
    }

    /** Karpenter's runtime validation refuses capacity on a resource the AWS instance types report themselves. */
    @Test
    void capacityOnAResourceTheTypesReportIsRefused() {
        assertThatThrownBy(
                        () -> config(
                                "efa",
                                "node_overlays = [{ name = \"efa\", spec = { requirements = [], capacity = { \"vpc.amazonaws.com/efa\" = 1 } } }]"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("node_overlays[0].spec.capacity may not set \"vpc.amazonaws.com/efa\": the instance types"
                        + " report it, and Karpenter applies such an overlay nowhere (Karpenter " + NEWEST + ")");
        // An extended resource of the cluster's own devices is what capacity is for.
        config(
                "fpga",
                "node_overlays = [{ name = \"fpga\", spec = { requirements = [], capacity = { \"example.com/fpga\" = 1 } } }]");
    }

    @Test
    void releasesWithoutTheKindRefuseTheSetting() {
        assertThatThrownBy(() -> TestConfigs.configFor("old", "us-west-2", BEFORE.chartVersion(), OVERLAYS))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("node_overlays applies to Karpenter 1.7");
    }
}
