package dev.platform.karpenter.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.catalog.NodeClassOffer.AmiKind;
import dev.platform.karpenter.catalog.NodeClassOffer.Kubelet;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's requirement semantics on the shipped catalogue. The expected counts were found independently, by a
 * script over upstream's instance-types.md at the catalogue's commit, which the first test pins: a refreshed catalogue
 * needs them counted again.
 */
@KernelOnlyThroughSynthesized
class SelectionTest {
    private static final InstanceCatalogue CATALOGUE = InstanceCatalogue.shipped();
    private static final String G = "karpenter.k8s.aws/";
    private static final NodeClassOffer BOTTLEROCKET =
            new NodeClassOffer(AmiKind.BOTTLEROCKET, "linux", Set.of("amd64", "arm64"), Kubelet.DEFAULT);
    private static final NodeClassOffer WINDOWS =
            new NodeClassOffer(AmiKind.WINDOWS, "windows", Set.of("amd64"), Kubelet.DEFAULT);

    private static LabelRequirement req(String key, String operator, String... values) {
        return new LabelRequirement(key, operator, Arrays.asList(values), Optional.empty(), key);
    }

    private static LabelRequirement min(String key, int minValues, String operator, String... values) {
        return new LabelRequirement(key, operator, Arrays.asList(values), Optional.of(minValues), key);
    }

    /** How many types a reference node class (AL2023, amd64 and arm64) offers under these requirements. */
    private static int count(LabelRequirement... requirements) {
        return select(NodeClassOffer.REFERENCE, requirements).types().size();
    }

    private static InstanceType type(String name) {
        return CATALOGUE.types().stream()
                .filter(type -> type.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static Selection select(NodeClassOffer nodeClass, LabelRequirement... requirements) {
        return Selection.of(CATALOGUE, List.of(requirements), nodeClass);
    }

    @Test
    void theCountsBelowAreForThisCatalogue() {
        assertThat(CATALOGUE.commit()).isEqualTo("bde00654cd316fddb3dccfba3f5ac07039865429");
    }

    @Test
    void examplesDefaultPoolLaunches714TypesCheapestC7aMedium() {
        Selection selection = select(
                BOTTLEROCKET,
                req("karpenter.sh/capacity-type", "In", "spot", "on-demand"),
                req("kubernetes.io/arch", "In", "amd64"),
                req("kubernetes.io/os", "In", "linux"),
                req(G + "instance-category", "In", "c", "m", "r"),
                req(G + "instance-generation", "Gt", "2"));
        assertThat(selection.types()).hasSize(714);
        assertThat(selection.cheapest(1).get(0).type().name()).isEqualTo("c7a.medium");
        assertThat(selection.cheapest(1).get(0).usdPerHour()).contains(new BigDecimal("0.05132"));
        assertThat(selection.ignored()).extracting(LabelRequirement::key).containsExactly("karpenter.sh/capacity-type");
    }

    @Test
    void numericOperatorsCompareIntegers() {
        LabelRequirement arm = req("kubernetes.io/arch", "In", "arm64");
        LabelRequirement computeOrGeneral = req(G + "instance-category", "In", "c", "m");
        assertThat(count(arm, computeOrGeneral, req(G + "instance-cpu", "Lt", "9")))
                .isEqualTo(80);
        // Gte and Lte (newer releases) include the bound.
        assertThat(count(arm, computeOrGeneral, req(G + "instance-cpu", "Lte", "8")))
                .isEqualTo(80);
        assertThat(count(
                        req(G + "instance-family", "In", "c7a", "m7a"),
                        req(G + "instance-size", "NotIn", "metal-48xl"),
                        req(G + "instance-generation", "Gt", "6")))
                .isEqualTo(22);
        assertThat(count(req(G + "instance-gpu-count", "Gte", "0"))).isEqualTo(65);
    }

    @Test
    void labelsOnlySomeTypesCarryFollowNodeAffinity() {
        assertThat(count(req(G + "instance-gpu-count", "Exists"))).isEqualTo(65);
        assertThat(count(req(G + "instance-gpu-count", "DoesNotExist"))).isEqualTo(1336 - 65);
        // NotIn holds where the label is missing.
        assertThat(count(req(G + "instance-gpu-manufacturer", "NotIn", "nvidia")))
                .isEqualTo(1277);
        // Gt fails where the label is missing (and five types carry a count of 0).
        assertThat(count(req(G + "instance-gpu-count", "Gt", "0"))).isEqualTo(60);
    }

    @Test
    void nodeClassOffersItsOsAndArchitectures() {
        Selection windows = select(WINDOWS, req(G + "instance-family", "In", "c7g", "c7i"));
        assertThat(windows.names()).allMatch(name -> name.startsWith("c7i."));
        Selection linuxOnWindows = select(WINDOWS, req("kubernetes.io/os", "In", "linux"));
        assertThat(linuxOnWindows.types()).isEmpty();
        assertThat(linuxOnWindows.emptiedBy()).map(LabelRequirement::key).contains("kubernetes.io/os");
    }

    @Test
    void requirementsOnLabelsNoTypeCarriesNarrowNothingAndAreReported() {
        Selection selection = select(
                NodeClassOffer.REFERENCE,
                req("topology.kubernetes.io/zone", "In", "us-west-2a"),
                req("team.example.com/owner", "In", "payments"),
                req(G + "instance-family", "In", "m5"));
        assertThat(selection.names()).hasSize(9).allMatch(name -> name.startsWith("m5."));
        assertThat(selection.ignored())
                .extracting(LabelRequirement::key)
                .containsExactly("topology.kubernetes.io/zone", "team.example.com/owner");
    }

    @Test
    void minValuesCountsDistinctValuesAmongTheMatchingTypes() {
        Selection unmet = select(
                NodeClassOffer.REFERENCE,
                min(G + "instance-family", 3, "In", "c7a", "m7a"),
                req(G + "instance-cpu", "Lt", "3"));
        assertThat(unmet.unmetMinValues()).containsValue(2);
        Selection met = select(NodeClassOffer.REFERENCE, min(G + "instance-family", 2, "In", "c7a", "m7a"));
        assertThat(met.unmetMinValues()).isEmpty();
    }

    @Test
    void kubeletSettingsChangePodsAndAllocatableMemory() {
        InstanceType m5large = type("m5.large");
        assertThat(NodeResources.of(m5large, NodeClassOffer.REFERENCE)
                        .allocatable()
                        .get("pods"))
                .isEqualByComparingTo("29");
        Kubelet maxPods110 = new Kubelet(Optional.of(110), Optional.empty(), Map.of(), Map.of(), Map.of());
        // AL2023 reserves memory for the ENI-limited pods whatever maxPods says; Bottlerocket for maxPods.
        NodeResources al2023 =
                NodeResources.of(m5large, new NodeClassOffer(AmiKind.AL2023, "linux", Set.of("amd64"), maxPods110));
        NodeResources bottlerocket = NodeResources.of(
                m5large, new NodeClassOffer(AmiKind.BOTTLEROCKET, "linux", Set.of("amd64"), maxPods110));
        assertThat(al2023.allocatable().get("pods")).isEqualByComparingTo("110");
        assertThat(al2023.allocatable().get("memory"))
                .isEqualByComparingTo(m5large.allocatable().get("memory"));
        assertThat(m5large.allocatable()
                        .get("memory")
                        .subtract(bottlerocket.allocatable().get("memory")))
                .isEqualByComparingTo(BigDecimal.valueOf(11L * (110 - 29) << 20));
        // podsPerCore: honoured on AL2023 (2 vCPUs x 4), ignored on Bottlerocket.
        Kubelet perCore = new Kubelet(Optional.empty(), Optional.of(4), Map.of(), Map.of(), Map.of());
        assertThat(NodeResources.of(m5large, new NodeClassOffer(AmiKind.AL2023, "linux", Set.of("amd64"), perCore))
                        .allocatable()
                        .get("pods"))
                .isEqualByComparingTo("8");
        assertThat(NodeResources.of(
                                m5large, new NodeClassOffer(AmiKind.BOTTLEROCKET, "linux", Set.of("amd64"), perCore))
                        .allocatable()
                        .get("pods"))
                .isEqualByComparingTo("29");
        // Reservations given replace the computed ones.
        Kubelet reserved = new Kubelet(
                Optional.empty(),
                Optional.empty(),
                Map.of("memory", "1Gi", "cpu", "500m"),
                Map.of("memory", "200Mi"),
                Map.of("memory.available", "5%"));
        NodeResources custom =
                NodeResources.of(m5large, new NodeClassOffer(AmiKind.AL2023, "linux", Set.of("amd64"), reserved));
        BigDecimal capacity = custom.capacity().get("memory");
        assertThat(custom.allocatable().get("cpu")).isEqualByComparingTo("1.5");
        assertThat(custom.allocatable().get("memory"))
                .isEqualByComparingTo(capacity.subtract(BigDecimal.valueOf(1224L << 20))
                        .subtract(
                                capacity.multiply(new BigDecimal("0.05")).setScale(0, java.math.RoundingMode.CEILING)));
    }

    /**
     * The controller's reserved ENIs and the node class's EFA-only interfaces hold no pod addresses (upstream's
     * ENILimitedPods); its vmMemoryOverheadPercent sets the memory the VM keeps.
     */
    @Test
    void reservedAndEfaOnlyInterfacesAndTheVmOverheadFollowTheSettings() {
        InstanceType m5large = type("m5.large");
        // m5.large: 3 interfaces of 10 IPv4 addresses, 29 pods; one reserved leaves 2 x 9 + 2
        NodeResources reserved = al2023(m5large, new NodeClassOffer.UnusableInterfaces(1, 0), null);
        assertThat(reserved.allocatable().get("pods")).isEqualByComparingTo("20");
        // the memory AL2023 reserves still counts the interfaces the controller keeps: 29 pods' worth
        assertThat(reserved.allocatable().get("memory"))
                .isEqualByComparingTo(m5large.allocatable().get("memory"));
        NodeResources efaOnly = al2023(m5large, new NodeClassOffer.UnusableInterfaces(0, 1), null);
        assertThat(efaOnly.allocatable().get("pods")).isEqualByComparingTo("20");
        assertThat(m5large.allocatable()
                        .get("memory")
                        .subtract(efaOnly.allocatable().get("memory")))
                .isEqualByComparingTo(BigDecimal.valueOf(11L * (20 - 29) << 20));
        assertThat(al2023(m5large, NodeClassOffer.UnusableInterfaces.NONE, new BigDecimal("0.1"))
                        .capacity()
                        .get("memory"))
                .isLessThan(NodeResources.of(m5large, NodeClassOffer.REFERENCE)
                        .capacity()
                        .get("memory"));
    }

    /** {@code type} on AL2023 (amd64) with {@code unusable} interfaces and a VM overhead (null: the default). */
    private static NodeResources al2023(
            InstanceType type, NodeClassOffer.UnusableInterfaces unusable, BigDecimal vmMemoryOverhead) {
        return NodeResources.of(
                type,
                new NodeClassOffer(
                        AmiKind.AL2023,
                        "linux",
                        Set.of("amd64"),
                        Kubelet.DEFAULT,
                        unusable,
                        vmMemoryOverhead == null ? NodeClassOffer.DEFAULT_VM_MEMORY_OVERHEAD : vmMemoryOverhead));
    }

    /**
     * Ephemeral storage is the node class's volume (upstream's table assumes AL2023's default 20Gi): the capacity
     * Karpenter counts against limits, less 1Gi kube-reserved and the 10% nodefs eviction threshold for pods.
     */
    @Test
    void ephemeralStorageIsTheNodeClassesVolume() {
        BigDecimal gi = BigDecimal.valueOf(1L << 30);
        for (InstanceType type : CATALOGUE.types()) {
            NodeResources reference = NodeResources.of(type, NodeClassOffer.REFERENCE);
            assertThat(reference.allocatable().get("ephemeral-storage"))
                    .as(type.name())
                    .isEqualByComparingTo(type.allocatable().get("ephemeral-storage"));
            assertThat(reference.capacity().get("ephemeral-storage"))
                    .isEqualByComparingTo(gi.multiply(BigDecimal.valueOf(20)));
        }
        InstanceType m5d = type("m5d.large");
        assertThat(m5d.label(G + "instance-local-nvme")).isEqualTo("75");
        NodeClassOffer raid0 =
                disk(new NodeClassOffer.Disk(gi.multiply(BigDecimal.valueOf(100)), true), Kubelet.DEFAULT);
        // The instance store, in decimal GB as EC2 reports it; a type without one keeps the volume.
        assertThat(NodeResources.of(m5d, raid0).capacity().get("ephemeral-storage"))
                .isEqualByComparingTo("75000000000");
        assertThat(NodeResources.of(type("m5.large"), raid0).capacity().get("ephemeral-storage"))
                .isEqualByComparingTo(gi.multiply(BigDecimal.valueOf(100)));
        assertThat(NodeResources.of(type("m5.large"), WINDOWS).capacity().get("ephemeral-storage"))
                .isEqualByComparingTo(gi.multiply(BigDecimal.valueOf(50)));
        // evictionHard nodefs.available 100% turns the threshold off; kubeReserved replaces the 1Gi.
        NodeClassOffer tuned = disk(
                new NodeClassOffer.Disk(gi.multiply(BigDecimal.valueOf(100)), false),
                new Kubelet(
                        Optional.empty(),
                        Optional.empty(),
                        Map.of("ephemeral-storage", "3Gi"),
                        Map.of(),
                        Map.of("nodefs.available", "100%")));
        assertThat(NodeResources.of(type("m5.large"), tuned).allocatable().get("ephemeral-storage"))
                .isEqualByComparingTo(gi.multiply(BigDecimal.valueOf(97)));
    }

    private static NodeClassOffer disk(NodeClassOffer.Disk disk, Kubelet kubelet) {
        return new NodeClassOffer(
                AmiKind.AL2023,
                "linux",
                Set.of("amd64"),
                kubelet,
                NodeClassOffer.UnusableInterfaces.NONE,
                NodeClassOffer.DEFAULT_VM_MEMORY_OVERHEAD,
                disk);
    }

    /** Upstream's .metal types carry instance-hypervisor with an empty value: present, unlike a label a type lacks. */
    @Test
    void aLabelWithAnEmptyValueIsPresent() {
        Selection empty = select(NodeClassOffer.REFERENCE, req(G + "instance-hypervisor", "In", ""));
        assertThat(empty.names()).hasSize(141).contains("m5.metal").allMatch(name -> name.contains(".metal"));
        assertThat(select(NodeClassOffer.REFERENCE, req(G + "instance-hypervisor", "Exists"))
                        .names())
                .contains("m5.metal", "m5.large");
        assertThat(select(NodeClassOffer.REFERENCE, req(G + "instance-hypervisor", "DoesNotExist"))
                        .names())
                .doesNotContain("m5.metal", "m5.large");
    }

    @Test
    void limitsBoundNodesAndCost() {
        Selection c7a = select(
                NodeClassOffer.REFERENCE, req(G + "instance-family", "In", "c7a"), req(G + "instance-cpu", "Lt", "3"));
        // c7a.medium (1 vCPU, $0.05132) and c7a.large (2 vCPUs, $0.10264): 4 vCPUs hold 4 mediums or 2 larges,
        // either $0.20528 an hour, $149.85 over 730 hours.
        Spending spending = Spending.of(c7a, Map.of("cpu", new BigDecimal(4)));
        assertThat(spending.maxNodes()).contains(4L);
        assertThat(spending.ceilingUsdPerMonth()).contains(new BigDecimal("149.85"));
        assertThat(Spending.of(c7a, Map.of("cpu", new BigDecimal("0.5"))).fittingTypes())
                .isZero();
        assertThat(Spending.of(c7a, Map.of()).maxNodes()).isEmpty();
    }

    private static NodeOverlay overlay(
            String name,
            int weight,
            String price,
            String adjustment,
            Map<String, String> capacity,
            LabelRequirement... requirements) {
        return new NodeOverlay(
                name,
                weight,
                List.of(requirements),
                Optional.ofNullable(price),
                Optional.ofNullable(adjustment),
                capacity.isEmpty() ? Optional.empty() : Optional.of(capacity));
    }

    /** Upstream's conflict example: the higher weight's adjustment wins, capacities of both add up. */
    @Test
    void nodeOverlaysPriceAndAddCapacityHighestWeightFirst() {
        LabelRequirement medium = req("node.kubernetes.io/instance-type", "In", "c7a.medium");
        List<NodeOverlay> overlays = List.of(
                overlay("overlay-a", 5, null, "-10%", Map.of("hugepages-2Mi", "50Mi"), medium),
                overlay("overlay-b", 10, null, "-20%", Map.of("custom-device/gpu", "1"), medium),
                overlay(
                        "spot-only",
                        50,
                        "0.001",
                        null,
                        Map.of(),
                        medium,
                        req("karpenter.sh/capacity-type", "In", "spot")));
        Selection selection = Selection.of(
                CATALOGUE, List.of(req(G + "instance-family", "In", "c7a")), NodeClassOffer.REFERENCE, overlays);
        Selection.Candidate c7aMedium = selection.cheapest(1).get(0);
        assertThat(c7aMedium.type().name()).isEqualTo("c7a.medium");
        // $0.05132 less 20%; the spot-only overlay prices spot offerings, not the on-demand one.
        assertThat(c7aMedium.usdPerHour()).contains(new BigDecimal("0.041056"));
        assertThat(c7aMedium.overlays()).containsExactly("overlay-b", "overlay-a");
        assertThat(c7aMedium.resources().capacity())
                .containsEntry("custom-device/gpu", BigDecimal.ONE)
                .containsEntry("hugepages-2Mi", BigDecimal.valueOf(50L << 20));
        // An absolute price and an absolute adjustment.
        Selection priced = Selection.of(
                CATALOGUE,
                List.of(req(G + "instance-family", "In", "c7a")),
                NodeClassOffer.REFERENCE,
                List.of(
                        overlay("flat", 1, "0.01", null, Map.of(), req(G + "instance-size", "In", "large")),
                        overlay("minus", 0, null, "-0.1", Map.of(), req(G + "instance-size", "In", "xlarge"))));
        assertThat(priced.cheapest(2)).extracting(c -> c.type().name()).containsExactly("c7a.large", "c7a.medium");
        assertThat(priced.cheapest(1).get(0).usdPerHour()).contains(new BigDecimal("0.01"));
        assertThat(priced.types().stream()
                        .filter(c -> c.type().name().equals("c7a.xlarge"))
                        .findFirst()
                        .orElseThrow()
                        .usdPerHour())
                .contains(new BigDecimal("0.10528"));
    }

    /** Of equal weights, the overlay whose name comes later in the alphabet takes precedence (upstream's OrderByWeight). */
    @Test
    void ofEqualWeightsTheLaterNameWins() {
        LabelRequirement medium = req("node.kubernetes.io/instance-type", "In", "c7a.medium");
        Selection selection = Selection.of(
                CATALOGUE,
                List.of(medium),
                NodeClassOffer.REFERENCE,
                List.of(
                        overlay("a-first", 0, "0.01", null, Map.of(), medium),
                        overlay("b-later", 0, "0.02", null, Map.of(), medium)));
        assertThat(selection.cheapest(1).get(0).usdPerHour()).contains(new BigDecimal("0.02"));
    }
}
