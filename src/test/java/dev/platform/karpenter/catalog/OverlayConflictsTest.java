package dev.platform.karpenter.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which overlays Karpenter's nodeoverlay controller refuses as conflicting, on the shipped catalogue. */
class OverlayConflictsTest {
    private static final InstanceCatalogue CATALOGUE = InstanceCatalogue.shipped();
    private static final NodeOverlay.Scope DEFAULT =
            new NodeOverlay.Scope("default", Map.of(), "us-west-2", NodeClassOffer.REFERENCE);
    private static final NodeOverlay.Scope BATCH =
            new NodeOverlay.Scope("batch", Map.of("team", "batch"), "us-west-2", NodeClassOffer.REFERENCE);
    private static final LabelRequirement C7A = req("karpenter.k8s.aws/instance-family", "In", "c7a");

    private static LabelRequirement req(String key, String operator, String... values) {
        return new LabelRequirement(key, operator, Arrays.asList(values), Optional.empty(), "spec.requirements");
    }

    private static NodeOverlay priced(String name, int weight, LabelRequirement... requirements) {
        return new NodeOverlay(
                name, weight, List.of(requirements), Optional.empty(), Optional.of("-10%"), Optional.empty());
    }

    private static NodeOverlay adding(String name, int weight, String resource, LabelRequirement... requirements) {
        return capacity(name, weight, Map.of(resource, "1"), requirements);
    }

    private static NodeOverlay capacity(
            String name, int weight, Map<String, String> capacity, LabelRequirement... requirements) {
        return new NodeOverlay(
                name, weight, List.of(requirements), Optional.empty(), Optional.empty(), Optional.of(capacity));
    }

    private static List<String> refused(List<NodeOverlay.Scope> pools, NodeOverlay... overlays) {
        return OverlayConflicts.find(List.of(overlays), pools, CATALOGUE).stream()
                .map(conflict ->
                        conflict.overlay().name() + " with " + conflict.with().name() + " on " + conflict.what())
                .toList();
    }

    /** Of two equal-weight overlays pricing the same offerings, the one taken second (the earlier name) is refused. */
    @Test
    void equalWeightsPricingTheSameOfferingConflict() {
        List<OverlayConflicts.Conflict> conflicts = OverlayConflicts.find(
                List.of(priced("a-discount", 5, C7A), priced("b-discount", 5, C7A), priced("heavier", 6, C7A)),
                List.of(DEFAULT),
                CATALOGUE);
        assertThat(conflicts).hasSize(1);
        OverlayConflicts.Conflict conflict = conflicts.get(0);
        assertThat(conflict.overlay().name()).isEqualTo("a-discount");
        assertThat(conflict.with().name()).isEqualTo("b-discount");
        assertThat(conflict.instanceType()).startsWith("c7a.");
        assertThat(conflict.describe())
                .isEqualTo("node overlay \"a-discount\" sets the price of " + conflict.instanceType()
                        + " in pool \"default\", as \"b-discount\" of the same weight (5) does: Karpenter applies it"
                        + " nowhere and marks it Conflict (give one of them another weight)");
        // Different weights, or types that do not overlap, do not conflict.
        assertThat(refused(List.of(DEFAULT), priced("a", 5, C7A), priced("b", 6, C7A)))
                .isEmpty();
        assertThat(refused(
                        List.of(DEFAULT),
                        priced("a", 5, C7A),
                        priced("b", 5, req("karpenter.k8s.aws/instance-family", "In", "m7a"))))
                .isEmpty();
    }

    /** Offerings are a capacity type in a zone: overlays on disjoint ones both apply. */
    @Test
    void overlaysOnDifferentOfferingsDoNotConflict() {
        LabelRequirement spot = req("karpenter.sh/capacity-type", "In", "spot");
        LabelRequirement onDemand = req("karpenter.sh/capacity-type", "In", "on-demand");
        String zone = "topology.kubernetes.io/zone";
        assertThat(refused(List.of(DEFAULT), priced("a", 0, C7A, spot), priced("b", 0, C7A, onDemand)))
                .isEmpty();
        assertThat(refused(List.of(DEFAULT), priced("a", 0, C7A, spot), priced("b", 0, C7A)))
                .containsExactly("a with b on price");
        assertThat(refused(
                        List.of(DEFAULT),
                        priced("a", 0, C7A, req(zone, "In", "us-east-1a")),
                        priced("b", 0, C7A, req(zone, "In", "us-east-1b"))))
                .isEmpty();
        assertThat(refused(
                        List.of(DEFAULT),
                        priced("a", 0, C7A, req(zone, "In", "us-east-1a")),
                        priced("b", 0, C7A, req(zone, "NotIn", "us-east-1a"))))
                .isEmpty();
        // Two exclusions still leave zones both admit.
        assertThat(refused(
                        List.of(DEFAULT),
                        priced("a", 0, C7A, req(zone, "NotIn", "us-east-1a")),
                        priced("b", 0, C7A, req(zone, "NotIn", "us-east-1b"))))
                .containsExactly("a with b on price");
    }

    /** Capacity conflicts where the same resource is set; different resources add up. */
    @Test
    void capacityConflictsOnTheSameResource() {
        assertThat(refused(
                        List.of(DEFAULT),
                        adding("a", 0, "example.com/fpga", C7A),
                        adding("b", 0, "hugepages-2Mi", C7A)))
                .isEmpty();
        assertThat(refused(
                        List.of(DEFAULT),
                        adding("a", 0, "example.com/fpga", C7A),
                        adding("b", 0, "example.com/fpga", C7A)))
                .containsExactly("a with b on capacity");
        assertThat(refused(
                        List.of(DEFAULT),
                        adding("a", 1, "example.com/fpga", C7A),
                        adding("b", 0, "example.com/fpga", C7A)))
                .isEmpty();
    }

    /**
     * Karpenter compares capacity with the last overlay that wrote capacity, an empty one included: between two that
     * set the same resource, one writing {@code capacity: {}} leaves them no conflict.
     */
    @Test
    void anEmptyCapacityIsTheLastWrittenCapacity() {
        NodeOverlay zz = adding("zz", 10, "example.com/fpga", C7A);
        NodeOverlay xx = capacity("xx", 10, Map.of("example.com/fpga", "2", "example.com/dongle", "1"), C7A);
        assertThat(refused(List.of(DEFAULT), zz, xx)).containsExactly("xx with zz on capacity");
        assertThat(refused(List.of(DEFAULT), zz, capacity("yy", 10, Map.of(), C7A), xx))
                .isEmpty();
    }

    /** Overlays of different pools do not meet; a conflict in any pool keeps the overlay out of every pool. */
    @Test
    void conflictsArePerPoolButRefuseTheOverlayEverywhere() {
        LabelRequirement onlyBatch = req("karpenter.sh/nodepool", "In", "batch");
        LabelRequirement onlyDefault = req("karpenter.sh/nodepool", "In", "default");
        List<NodeOverlay.Scope> both = List.of(DEFAULT, BATCH);
        assertThat(refused(both, priced("a", 0, C7A, onlyBatch), priced("b", 0, C7A, onlyDefault)))
                .isEmpty();
        List<OverlayConflicts.Conflict> conflicts = OverlayConflicts.find(
                List.of(priced("a", 0, C7A), priced("b", 0, C7A, req("team", "In", "batch"))), both, CATALOGUE);
        assertThat(conflicts).hasSize(1);
        assertThat(conflicts.get(0).pool()).isEqualTo("batch");
        assertThat(conflicts.get(0).overlay().name()).isEqualTo("a");
        // One overlay alone, or an overlay no offering satisfies, conflicts with nothing.
        assertThat(refused(both, priced("a", 0, C7A))).isEmpty();
        assertThat(refused(
                        both,
                        priced("a", 0, C7A, req("karpenter.sh/capacity-type", "In", "reserved")),
                        priced("b", 0, C7A)))
                .isEmpty();
    }

    /**
     * Karpenter matches an overlay against the pool's name, template labels and each type's own labels, never the
     * pool's requirements: a spot-only overlay conflicts even in pools that launch on-demand only, and a requirement
     * on a label no one defines (here the region of another cluster) selects nothing.
     */
    @Test
    void overlaysMeetOnWhatKarpenterDefinesNotOnThePoolsRequirements() {
        LabelRequirement spot = req("karpenter.sh/capacity-type", "In", "spot");
        assertThat(refused(List.of(DEFAULT), priced("zz", 10, spot), priced("aa", 10)))
                .containsExactly("aa with zz on price");
        assertThat(selects(DEFAULT, req("topology.kubernetes.io/region", "In", "us-east-1")))
                .isFalse();
        assertThat(selects(DEFAULT, req("topology.kubernetes.io/region", "In", "us-west-2")))
                .isTrue();
        // A custom label: only a pool whose template sets it has it.
        assertThat(selects(DEFAULT, req("team", "In", "batch"))).isFalse();
        assertThat(selects(BATCH, req("team", "In", "batch"))).isTrue();
        // Linux nodes have no Windows build; every type offers default tenancy.
        assertThat(selects(DEFAULT, req("node.kubernetes.io/windows-build", "Exists")))
                .isFalse();
        assertThat(selects(DEFAULT, req("karpenter.k8s.aws/instance-tenancy", "In", "default")))
                .isTrue();
        // Windows nodes carry a build (not known here): only DoesNotExist fails there.
        NodeOverlay.Scope windows = new NodeOverlay.Scope(
                "windows",
                Map.of(),
                "us-west-2",
                new NodeClassOffer(
                        NodeClassOffer.AmiKind.WINDOWS, "windows", Set.of("amd64"), NodeClassOffer.Kubelet.DEFAULT));
        assertThat(selects(windows, req("node.kubernetes.io/windows-build", "Exists")))
                .isTrue();
        assertThat(selects(windows, req("node.kubernetes.io/windows-build", "DoesNotExist")))
                .isFalse();
    }

    /**
     * Whether an overlay with {@code requirement} selects anything in {@code scope}: if it does, an overlay of the same
     * weight that selects everything, taken after it, conflicts.
     */
    private static boolean selects(NodeOverlay.Scope scope, LabelRequirement requirement) {
        List<String> refused = refused(List.of(scope), priced("zz", 10, requirement), priced("aa", 10));
        assertThat(refused).isSubsetOf("aa with zz on price");
        return !refused.isEmpty();
    }
}
