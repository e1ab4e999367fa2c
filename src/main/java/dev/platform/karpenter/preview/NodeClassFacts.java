package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.NodeClassOffer;
import dev.platform.karpenter.catalog.NodeClassOffer.AmiKind;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What a rendered node class (EC2NodeClass, AWSNodeTemplate) offers: its AMI family's OS and architectures. */
final class NodeClassFacts {
    private NodeClassFacts() {}

    /**
     * The family from the first AMI alias ("bottlerocket@latest", "windows2022@v20250101") or, without one, from
     * amiFamily; AMIs chosen by id, name or tags with family Custom are taken as Linux on both architectures.
     */
    static NodeClassOffer offer(Map<String, Object> nodeClass, Map<String, Object> kubelet) {
        String family = String.valueOf(nodeClass.getOrDefault("amiFamily", "AL2023"));
        for (Object term : PoolFacts.list(nodeClass.get("amiSelectorTerms"))) {
            Object alias = PoolFacts.map(term).get("alias");
            if (alias != null) {
                family = String.valueOf(alias).split("@", 2)[0];
                break;
            }
        }
        AmiKind kind = kind(family);
        return new NodeClassOffer(
                kind,
                kind == AmiKind.WINDOWS ? "windows" : "linux",
                kind == AmiKind.WINDOWS ? Set.of("amd64") : Set.of("amd64", "arm64"),
                kubelet(kubelet));
    }

    static AmiKind kind(String family) {
        String lower = family.toLowerCase(Locale.ROOT);
        if (lower.startsWith("windows")) {
            return AmiKind.WINDOWS;
        }
        return switch (lower) {
            case "al2023" -> AmiKind.AL2023;
            case "al2" -> AmiKind.AL2;
            case "bottlerocket" -> AmiKind.BOTTLEROCKET;
            default -> AmiKind.CUSTOM;
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
        return value == null
                ? Optional.empty()
                : Optional.of(new java.math.BigDecimal(String.valueOf(value)).intValue());
    }

    private static Map<String, String> strings(Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        PoolFacts.map(value).forEach((key, v) -> out.put(key, String.valueOf(v)));
        return Map.copyOf(out);
    }
}
