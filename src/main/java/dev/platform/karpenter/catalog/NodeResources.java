package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;

/**
 * A node's capacity (what Karpenter counts against a pool's limits) and allocatable resources (what pods get) for
 * one instance type launched with one node class, by the rules upstream documents: max pods from the network
 * interfaces of the default card, kube-reserved CPU in steps and memory per pod, a 100Mi hard eviction threshold,
 * and the VM memory overhead (7.5% unless the controller sets another; 64 MiB more on Graviton for its reserved CMA
 * memory); ephemeral storage from the node class's volume or instance store, less 1Gi kube-reserved and a 10%
 * eviction threshold.
 *
 * @param capacity    resource to quantity: cpu in cores, memory in bytes, pods, extended resources
 * @param allocatable the same after kube-reserved, system-reserved and the eviction threshold
 */
public record NodeResources(Map<String, BigDecimal> capacity, Map<String, BigDecimal> allocatable) {
    static final long GRAVITON_CMA_MIB = 64;
    static final int PODS_WITHOUT_ENI_LIMIT = 110;
    private static final BigDecimal DEFAULT_EVICTION_MIB = BigDecimal.valueOf(100);
    private static final String EPHEMERAL_STORAGE = "ephemeral-storage";
    /** Upstream's kube-reserved ephemeral storage, and the kubelet's nodefs.available eviction threshold. */
    private static final BigDecimal DEFAULT_KUBE_RESERVED_STORAGE = Quantity.parse("1Gi");

    private static final BigDecimal DEFAULT_NODEFS_EVICTION_PERCENT = BigDecimal.TEN;
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The resources of {@code type} under {@code nodeClass}. */
    public static NodeResources of(InstanceType type, NodeClassOffer nodeClass) {
        NodeClassOffer.Kubelet kubelet = nodeClass.kubelet();
        NodeClassOffer.UnusableInterfaces unusable = nodeClass.interfaces();
        int eniPods = eniLimitedPods(type, unusable.reserved() + unusable.efaOnly());
        int pods = kubelet.maxPods().orElse(nodeClass.family().eniLimitedPods ? eniPods : PODS_WITHOUT_ENI_LIMIT);
        if (nodeClass.family().podsPerCore && kubelet.podsPerCore().orElse(0) > 0) {
            pods = Math.min(pods, kubelet.podsPerCore().get() * type.vcpus());
        }
        BigDecimal cpu = BigDecimal.valueOf(type.vcpus());
        BigDecimal memory = memoryCapacity(type, nodeClass.vmMemoryOverheadPercent());
        Map<String, BigDecimal> capacity = new HashMap<>(type.allocatable());
        capacity.put("cpu", cpu);
        capacity.put("memory", memory);
        capacity.put("pods", BigDecimal.valueOf(pods));
        BigDecimal storage = nodeClass.disk().capacity(type);
        capacity.put(EPHEMERAL_STORAGE, storage);

        int reservedPods =
                nodeClass.family().eniLimitedMemoryOverhead ? eniLimitedPods(type, unusable.efaOnly()) : pods;
        BigDecimal kubeCpu = reserved(kubelet.kubeReserved(), "cpu", kubeReservedCpu(type.vcpus()));
        BigDecimal kubeMemory = reserved(
                kubelet.kubeReserved(),
                "memory",
                BigDecimal.valueOf(11L * reservedPods + 255).multiply(Quantity.MIB));
        BigDecimal systemCpu = reserved(kubelet.systemReserved(), "cpu", BigDecimal.ZERO);
        BigDecimal systemMemory = reserved(kubelet.systemReserved(), "memory", BigDecimal.ZERO);
        BigDecimal eviction = evictionMemory(kubelet.evictionHard(), memory);
        Map<String, BigDecimal> allocatable = new HashMap<>(capacity);
        allocatable.put("cpu", cpu.subtract(kubeCpu).subtract(systemCpu).max(BigDecimal.ZERO));
        allocatable.put(
                "memory",
                memory.subtract(kubeMemory)
                        .subtract(systemMemory)
                        .subtract(eviction)
                        .max(BigDecimal.ZERO));
        allocatable.put(
                EPHEMERAL_STORAGE,
                storage.subtract(reserved(kubelet.kubeReserved(), EPHEMERAL_STORAGE, DEFAULT_KUBE_RESERVED_STORAGE))
                        .subtract(reserved(kubelet.systemReserved(), EPHEMERAL_STORAGE, BigDecimal.ZERO))
                        .subtract(evictionStorage(kubelet.evictionHard(), storage))
                        .max(BigDecimal.ZERO));
        return new NodeResources(Map.copyOf(capacity), Map.copyOf(allocatable));
    }

    /** These resources with {@code added} extended resources (node overlays' capacity) in capacity and allocatable. */
    NodeResources plus(Map<String, BigDecimal> added) {
        if (added.isEmpty()) {
            return this;
        }
        Map<String, BigDecimal> moreCapacity = new HashMap<>(capacity);
        Map<String, BigDecimal> moreAllocatable = new HashMap<>(allocatable);
        added.forEach((resource, quantity) -> {
            moreCapacity.merge(resource, quantity, BigDecimal::add);
            moreAllocatable.merge(resource, quantity, BigDecimal::add);
        });
        return new NodeResources(Map.copyOf(moreCapacity), Map.copyOf(moreAllocatable));
    }

    /**
     * Pods the VPC CNI can address without prefix delegation: interfaces of the default card times their IPv4
     * addresses less the interface's own, plus 2 for host-network pods (EKS's eni-max-pods rule).
     */
    public static int eniLimitedPods(InstanceType type) {
        return eniLimitedPods(type, 0);
    }

    /** The same with {@code unusable} interfaces of the default card holding no pod addresses (none left: 0 pods). */
    public static int eniLimitedPods(InstanceType type, int unusable) {
        if (type.interfaces() == 0) {
            return type.documentedPods();
        }
        int usable = Math.max(type.interfaces() - unusable, 0);
        return usable == 0 ? 0 : usable * (type.ipv4PerInterface() - 1) + 2;
    }

    /**
     * Pods with prefix delegation: each secondary address slot holds a /28 prefix of 16 addresses (AWS VPC CNI
     * documentation), before any cap a node class's maxPods sets.
     */
    public static int prefixDelegationPods(InstanceType type) {
        if (type.interfaces() == 0) {
            return type.documentedPods();
        }
        return type.interfaces() * (type.ipv4PerInterface() - 1) * 16 + 2;
    }

    /** Memory after the VM's overhead, in bytes: what the node reports as capacity. */
    static BigDecimal memoryCapacity(InstanceType type, BigDecimal vmMemoryOverheadPercent) {
        long mib = type.memoryMiB() - ("arm64".equals(type.architecture()) ? GRAVITON_CMA_MIB : 0);
        long overhead = BigDecimal.valueOf(mib)
                .multiply(vmMemoryOverheadPercent)
                .setScale(0, RoundingMode.CEILING)
                .longValueExact();
        return BigDecimal.valueOf(mib - overhead).multiply(Quantity.MIB);
    }

    /** Kube-reserved CPU in cores: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% above. */
    static BigDecimal kubeReservedCpu(int vcpus) {
        long[][] steps = {{0, 1000, 600}, {1000, 2000, 100}, {2000, 4000, 50}, {4000, Long.MAX_VALUE, 25}};
        long millicores = (long) vcpus * 1000;
        long reservedTenThousandths = 0; // of a millicore, so the steps stay integer
        for (long[] step : steps) {
            if (millicores > step[0]) {
                long inStep = Math.min(millicores, step[1]) - step[0];
                reservedTenThousandths += inStep * step[2];
            }
        }
        return BigDecimal.valueOf(reservedTenThousandths / 10_000).divide(BigDecimal.valueOf(1000));
    }

    private static BigDecimal reserved(Map<String, String> given, String resource, BigDecimal computed) {
        String value = given.get(resource);
        return value == null ? computed : Quantity.parse(value);
    }

    private static BigDecimal evictionMemory(Map<String, String> evictionHard, BigDecimal memoryCapacity) {
        String signal = evictionHard.get("memory.available");
        return signal == null ? DEFAULT_EVICTION_MIB.multiply(Quantity.MIB) : eviction(signal, memoryCapacity);
    }

    /** The kubelet's nodefs.available threshold: 10% of the volume unless evictionHard sets it. */
    private static BigDecimal evictionStorage(Map<String, String> evictionHard, BigDecimal storageCapacity) {
        String signal = evictionHard.get("nodefs.available");
        return signal == null
                ? share(storageCapacity, DEFAULT_NODEFS_EVICTION_PERCENT)
                : eviction(signal, storageCapacity);
    }

    /** A hard eviction threshold: a share of {@code capacity} ("10%") or a quantity. */
    private static BigDecimal eviction(String signal, BigDecimal capacity) {
        if (!signal.endsWith("%")) {
            return Quantity.parse(signal);
        }
        BigDecimal percent = new BigDecimal(signal.substring(0, signal.length() - 1));
        // 100% turns the threshold off (the kubelet's configuration reference).
        return percent.compareTo(HUNDRED) == 0 ? BigDecimal.ZERO : share(capacity, percent);
    }

    private static BigDecimal share(BigDecimal capacity, BigDecimal percent) {
        return capacity.multiply(percent).divide(HUNDRED, 0, RoundingMode.CEILING);
    }
}
