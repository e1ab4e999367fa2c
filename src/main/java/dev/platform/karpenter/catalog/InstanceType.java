package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * One instance type of the catalogue as upstream documents it: its labels (every karpenter.k8s.aws/* and well-known
 * label, the instance-type label included), its allocatable resources on AL2023 with the default kubelet, its
 * on-demand list price and its network interface limits.
 *
 * @param allocatable resource name to quantity in base units (cores, bytes, pods, devices)
 * @param usdPerHour  on-demand list price; empty where upstream lists none for the price region
 * @param interfaces  network interfaces of the default network card, which the VPC CNI uses; 0 if unknown
 * @param ipv4PerInterface IPv4 addresses per interface; 0 if unknown
 */
public record InstanceType(
        String name,
        Map<String, String> labels,
        Map<String, BigDecimal> allocatable,
        Optional<BigDecimal> usdPerHour,
        int interfaces,
        int ipv4PerInterface) {

    public static final String CPU_LABEL = "karpenter.k8s.aws/instance-cpu";
    public static final String MEMORY_LABEL = "karpenter.k8s.aws/instance-memory";
    public static final String FAMILY_LABEL = "karpenter.k8s.aws/instance-family";
    public static final String ARCH_LABEL = "kubernetes.io/arch";
    public static final String OS_LABEL = "kubernetes.io/os";

    /** vCPUs (the instance-cpu label). */
    public int vcpus() {
        return Integer.parseInt(labels.get(CPU_LABEL));
    }

    /** Memory in MiB as EC2 reports it (the instance-memory label). */
    public long memoryMiB() {
        return Long.parseLong(labels.get(MEMORY_LABEL));
    }

    public String family() {
        return labels.get(FAMILY_LABEL);
    }

    public String architecture() {
        return labels.get(ARCH_LABEL);
    }

    /** Allocatable pods as upstream documents them (the ENI-limited count). */
    public int documentedPods() {
        return allocatable.getOrDefault("pods", BigDecimal.ZERO).intValue();
    }
}
