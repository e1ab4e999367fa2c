package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.NodeClassOffer;
import dev.platform.karpenter.catalog.NodeClassOffer.AmiKind;
import dev.platform.karpenter.catalog.Quantity;
import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.nodepools.manifest.RenderedNodeClass;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a rendered node class (EC2NodeClass, AWSNodeTemplate) offers: its AMI family's OS and architectures, kubelet,
 * network interfaces and the volume its nodes' ephemeral storage lives on.
 */
final class NodeClassFacts {
    private NodeClassFacts() {}

    /**
     * What Karpenter makes of the node class's family (EC2NodeClass.AMIFamily(): amiFamily, else the alias's): its
     * pod and overhead formulas, and the system of its instance types (windows for the Windows families, linux for
     * every other, Custom included). Without a node class of the project's: AL2023.
     */
    static NodeClassOffer offer(
            RenderedNodeClass nodeClass, Map<String, Object> kubelet, Map<String, Object> controllerValues) {
        AmiKind kind = nodeClass == null ? AmiKind.AL2023 : kind(nodeClass.family());
        Map<String, Object> settings = PoolFacts.map(controllerValues.get("settings"));
        Object overhead = settings.getOrDefault(
                "vmMemoryOverheadPercent", PoolFacts.map(settings.get("aws")).get("vmMemoryOverheadPercent"));
        return new NodeClassOffer(
                kind,
                kind == AmiKind.WINDOWS ? "windows" : "linux",
                kind == AmiKind.WINDOWS ? Set.of("amd64") : Set.of("amd64", "arm64"),
                kubelet(kubelet),
                new NodeClassOffer.UnusableInterfaces(
                        integer(settings.get("reservedENIs")).orElse(0),
                        nodeClass == null
                                ? 0
                                : efaOnlyInterfaces(nodeClass.object().spec())),
                overhead == null ? NodeClassOffer.DEFAULT_VM_MEMORY_OVERHEAD : new BigDecimal(String.valueOf(overhead)),
                new NodeClassOffer.Disk(
                        nodeClass == null
                                ? kind.ephemeralVolume
                                : ephemeralVolume(nodeClass.object().spec(), kind),
                        nodeClass != null
                                && "RAID0".equals(nodeClass.object().spec().get("instanceStorePolicy"))));
    }

    /**
     * The size of the volume Karpenter counts as the nodes' ephemeral storage (instancetype.ephemeralStorage): the
     * mapping marked rootVolume, else (Custom) the last mapping, else the family's ephemeral device, else the
     * family's default size.
     */
    private static BigDecimal ephemeralVolume(Map<String, Object> spec, AmiKind kind) {
        List<Map<String, Object>> mappings = PoolFacts.list(spec.get("blockDeviceMappings")).stream()
                .map(PoolFacts::map)
                .toList();
        if (mappings.isEmpty()) {
            return kind.ephemeralVolume;
        }
        Optional<BigDecimal> root = mappings.stream()
                .filter(mapping -> Boolean.TRUE.equals(mapping.get("rootVolume")))
                .findFirst()
                .flatMap(NodeClassFacts::volumeSize);
        if (root.isPresent()) {
            return root.get();
        }
        if (kind == AmiKind.CUSTOM) {
            return volumeSize(mappings.get(mappings.size() - 1)).orElse(kind.ephemeralVolume);
        }
        return mappings.stream()
                .filter(mapping -> kind.ephemeralDevice.equals(mapping.get("deviceName")))
                .findFirst()
                .flatMap(NodeClassFacts::volumeSize)
                .orElse(kind.ephemeralVolume);
    }

    private static Optional<BigDecimal> volumeSize(Map<String, Object> mapping) {
        return Optional.ofNullable(PoolFacts.map(mapping.get("ebs")).get("volumeSize"))
                .map(size -> Quantity.parse(String.valueOf(size)));
    }

    /** The node class's EFA-only interfaces on the default network card: no pod addresses on them. */
    private static int efaOnlyInterfaces(Map<String, Object> spec) {
        int count = 0;
        for (Object item : PoolFacts.list(spec.get("networkInterfaces"))) {
            Map<String, Object> network = PoolFacts.map(item);
            if ("efa-only".equals(network.get("interfaceType"))
                    && integer(network.get("networkCardIndex")).orElse(0) == 0) {
                count++;
            }
        }
        return count;
    }

    private static AmiKind kind(AmiFamily family) {
        return switch (family) {
            case AL2023 -> AmiKind.AL2023;
            case AL2 -> AmiKind.AL2;
            case BOTTLEROCKET -> AmiKind.BOTTLEROCKET;
            case WINDOWS2019, WINDOWS2022, WINDOWS2025 -> AmiKind.WINDOWS;
            case CUSTOM -> AmiKind.CUSTOM;
        };
    }

    private static NodeClassOffer.Kubelet kubelet(Map<String, Object> kubelet) {
        return new NodeClassOffer.Kubelet(
                integer(kubelet.get("maxPods")),
                integer(kubelet.get("podsPerCore")),
                strings(kubelet.get("kubeReserved")),
                strings(kubelet.get("systemReserved")),
                strings(kubelet.get("evictionHard")));
    }

    private static Optional<Integer> integer(Object value) {
        return value == null ? Optional.empty() : Optional.of(new BigDecimal(String.valueOf(value)).intValue());
    }

    private static Map<String, String> strings(Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        PoolFacts.map(value).forEach((key, v) -> out.put(key, String.valueOf(v)));
        return Map.copyOf(out);
    }
}
