package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a node class changes in the nodes Karpenter can launch from the catalogue: the operating system and
 * architectures its AMIs offer, and the kubelet settings that change pods and allocatable resources.
 *
 * @param family         the AMI family, for its pod and overhead rules
 * @param os             "linux" or "windows": the os label the nodes carry
 * @param architectures  the architectures its AMIs exist for
 * @param kubelet        the node class's kubelet settings (EC2NodeClass spec.kubelet)
 * @param interfaces     the network interfaces of the default card that carry no pod addresses
 * @param vmMemoryOverheadPercent the share of memory the VM keeps, as the controller is set (settings
 *                       .vmMemoryOverheadPercent, 0.075 by default)
 */
public record NodeClassOffer(
        AmiKind family,
        String os,
        Set<String> architectures,
        Kubelet kubelet,
        UnusableInterfaces interfaces,
        BigDecimal vmMemoryOverheadPercent) {

    /** The chart's default share of memory the VM keeps. */
    public static final BigDecimal DEFAULT_VM_MEMORY_OVERHEAD = new BigDecimal("0.075");

    /** A node class under the controller's defaults. */
    public NodeClassOffer(AmiKind family, String os, Set<String> architectures, Kubelet kubelet) {
        this(family, os, architectures, kubelet, UnusableInterfaces.NONE, DEFAULT_VM_MEMORY_OVERHEAD);
    }

    /**
     * Interfaces of the default network card that hold no pod addresses: those the controller reserves for other
     * uses (settings.reservedENIs) and the node class's EFA-only interfaces. Upstream counts both against max pods,
     * and only the EFA-only ones against the pods its reserved memory is computed for.
     */
    public record UnusableInterfaces(int reserved, int efaOnly) {
        public static final UnusableInterfaces NONE = new UnusableInterfaces(0, 0);
    }

    /** AMI families as they differ for pods and overhead (upstream's documented behaviour per family). */
    public enum AmiKind {
        AL2023(true, true, true),
        AL2(true, true, true),
        BOTTLEROCKET(true, false, false),
        WINDOWS(false, true, false),
        CUSTOM(true, true, true);

        /** Without maxPods, pods follow the ENI limits (else 110). */
        final boolean eniLimitedPods;
        /** podsPerCore is honoured (Bottlerocket ignores it). */
        final boolean podsPerCore;
        /** The reserved memory counts the ENI-limited pods, whatever maxPods says. */
        final boolean eniLimitedMemoryOverhead;

        AmiKind(boolean eniLimitedPods, boolean podsPerCore, boolean eniLimitedMemoryOverhead) {
            this.eniLimitedPods = eniLimitedPods;
            this.podsPerCore = podsPerCore;
            this.eniLimitedMemoryOverhead = eniLimitedMemoryOverhead;
        }
    }

    /**
     * The kubelet settings of a node class that change what a node offers.
     *
     * @param kubeReserved   resource name to quantity, replacing Karpenter's computed reservation per resource
     * @param systemReserved resource name to quantity
     * @param evictionHard   signal to threshold ("memory.available": "5%" or "500Mi")
     */
    public record Kubelet(
            Optional<Integer> maxPods,
            Optional<Integer> podsPerCore,
            Map<String, String> kubeReserved,
            Map<String, String> systemReserved,
            Map<String, String> evictionHard) {
        public static final Kubelet DEFAULT =
                new Kubelet(Optional.empty(), Optional.empty(), Map.of(), Map.of(), Map.of());
    }

    /** What upstream's catalogue assumes: AL2023 on both architectures, default kubelet. */
    public static final NodeClassOffer REFERENCE =
            new NodeClassOffer(AmiKind.AL2023, "linux", Set.of("amd64", "arm64"), Kubelet.DEFAULT);
}
