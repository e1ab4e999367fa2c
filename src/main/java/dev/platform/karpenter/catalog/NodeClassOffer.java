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
 * @param disk           where the nodes' ephemeral storage lives
 */
public record NodeClassOffer(
        AmiKind family,
        String os,
        Set<String> architectures,
        Kubelet kubelet,
        UnusableInterfaces interfaces,
        BigDecimal vmMemoryOverheadPercent,
        Disk disk) {

    /** The chart's default share of memory the VM keeps. */
    public static final BigDecimal DEFAULT_VM_MEMORY_OVERHEAD = new BigDecimal("0.075");

    /** A node class under the controller's defaults. */
    public NodeClassOffer(AmiKind family, String os, Set<String> architectures, Kubelet kubelet) {
        this(family, os, architectures, kubelet, UnusableInterfaces.NONE, DEFAULT_VM_MEMORY_OVERHEAD);
    }

    /** A node class with its family's volumes. */
    public NodeClassOffer(
            AmiKind family,
            String os,
            Set<String> architectures,
            Kubelet kubelet,
            UnusableInterfaces interfaces,
            BigDecimal vmMemoryOverheadPercent) {
        this(
                family,
                os,
                architectures,
                kubelet,
                interfaces,
                vmMemoryOverheadPercent,
                new Disk(family.ephemeralVolume, false));
    }

    /**
     * What Karpenter counts as a node's ephemeral-storage capacity (upstream's instancetype.ephemeralStorage): the
     * instance store where the node class sets {@code instanceStorePolicy: RAID0} and the type has local NVMe, else
     * the volume the kubelet's storage lives on.
     *
     * @param volume the size of that volume, in bytes
     */
    public record Disk(BigDecimal volume, boolean raid0) {
        private static final String LOCAL_NVME = "karpenter.k8s.aws/instance-local-nvme";
        private static final BigDecimal GB = BigDecimal.valueOf(1_000_000_000L);

        /** The capacity of {@code type}'s nodes; the instance store is in GB (decimal), as EC2 reports it. */
        BigDecimal capacity(InstanceType type) {
            String nvme = raid0 ? type.label(LOCAL_NVME) : null;
            return nvme == null || nvme.isEmpty() ? volume : new BigDecimal(nvme).multiply(GB);
        }
    }

    /**
     * Interfaces of the default network card that hold no pod addresses: those the controller reserves for other
     * uses (settings.reservedENIs) and the node class's EFA-only interfaces. Upstream counts both against max pods,
     * and only the EFA-only ones against the pods its reserved memory is computed for.
     */
    public record UnusableInterfaces(int reserved, int efaOnly) {
        public static final UnusableInterfaces NONE = new UnusableInterfaces(0, 0);
    }

    /**
     * AMI families as they differ for pods, overhead and volumes (upstream's documented behaviour per family, and its
     * amifamily package's default block device mappings).
     */
    public enum AmiKind {
        AL2023(true, true, true, "/dev/xvda", "20Gi"),
        AL2(true, true, true, "/dev/xvda", "20Gi"),
        BOTTLEROCKET(true, false, false, "/dev/xvdb", "20Gi"),
        WINDOWS(false, true, false, "/dev/sda1", "50Gi"),
        /** EC2 takes the AMI's own volumes; Karpenter assumes its default EBS volume. */
        CUSTOM(true, true, true, null, "20Gi");

        /** Without maxPods, pods follow the ENI limits (else 110). */
        final boolean eniLimitedPods;
        /** podsPerCore is honoured (Bottlerocket ignores it). */
        final boolean podsPerCore;
        /** The reserved memory counts the ENI-limited pods, whatever maxPods says. */
        final boolean eniLimitedMemoryOverhead;

        /** The device the kubelet's ephemeral storage lives on; null where the AMI decides. */
        public final String ephemeralDevice;
        /** That device's size where the node class does not set it. */
        public final BigDecimal ephemeralVolume;

        AmiKind(
                boolean eniLimitedPods,
                boolean podsPerCore,
                boolean eniLimitedMemoryOverhead,
                String ephemeralDevice,
                String ephemeralVolume) {
            this.eniLimitedPods = eniLimitedPods;
            this.podsPerCore = podsPerCore;
            this.eniLimitedMemoryOverhead = eniLimitedMemoryOverhead;
            this.ephemeralDevice = ephemeralDevice;
            this.ephemeralVolume = Quantity.parse(ephemeralVolume);
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
