package dev.platform.karpenter.catalog;

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
 */
public record NodeClassOffer(AmiKind family, String os, Set<String> architectures, Kubelet kubelet) {

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
