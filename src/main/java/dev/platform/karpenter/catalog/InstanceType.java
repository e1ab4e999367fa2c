package dev.platform.karpenter.catalog;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One instance type of the catalogue as upstream documents it: its labels (every karpenter.k8s.aws/* and well-known
 * label, the instance-type label included), its allocatable resources on AL2023 with the default kubelet, its
 * on-demand list price and the network interfaces of its default card.
 *
 * <p>The catalogue's row is kept as read (a cell per column); labels are looked up by column, and resources parsed
 * only when asked for, so reading the catalogue and matching requirements stay cheap at synth.
 */
public final class InstanceType {
    public static final String CPU_LABEL = "karpenter.k8s.aws/instance-cpu";
    public static final String MEMORY_LABEL = "karpenter.k8s.aws/instance-memory";
    public static final String FAMILY_LABEL = "karpenter.k8s.aws/instance-family";
    public static final String ARCH_LABEL = "kubernetes.io/arch";
    public static final String OS_LABEL = "kubernetes.io/os";

    private final String name;
    private final String[] cells;
    private final InstanceCatalogue.Columns columns;
    private final Optional<BigDecimal> usdPerHour;
    private final int vcpus;
    private final long memoryMiB;
    private final int interfaces;
    private final int ipv4PerInterface;
    /** Parsed on first use. */
    private Map<String, BigDecimal> allocatable;

    InstanceType(String name, String[] cells, InstanceCatalogue.Columns columns, Optional<BigDecimal> usdPerHour) {
        this.name = name;
        this.cells = cells;
        this.columns = columns;
        this.usdPerHour = usdPerHour;
        this.vcpus = Integer.parseInt(label(CPU_LABEL));
        this.memoryMiB = Long.parseLong(label(MEMORY_LABEL));
        this.interfaces = integer(InstanceCatalogue.VPC_INTERFACES);
        this.ipv4PerInterface = integer(InstanceCatalogue.VPC_IPV4_PER_INTERFACE);
    }

    private int integer(String column) {
        String cell = cell(columns.index(column));
        return cell == null ? 0 : Integer.parseInt(cell);
    }

    private String cell(int index) {
        if (index < 0 || index >= cells.length || cells[index].isEmpty()) {
            return null;
        }
        return cells[index].equals(InstanceCatalogue.EMPTY_VALUE) ? "" : cells[index];
    }

    public String name() {
        return name;
    }

    /** The value of label {@code key}, or null where the type does not carry it. */
    public String label(String key) {
        return key.equals(InstanceCatalogue.INSTANCE_TYPE_LABEL) ? name : cell(columns.labelIndex(key));
    }

    /** Every label the type carries. */
    public Map<String, String> labels() {
        Map<String, String> labels = new HashMap<>();
        for (String key : columns.labelKeys()) {
            String value = label(key);
            if (value != null) {
                labels.put(key, value);
            }
        }
        return labels;
    }

    /** Resource name to allocatable quantity in base units (cores, bytes, pods, devices), as upstream documents. */
    public Map<String, BigDecimal> allocatable() {
        Map<String, BigDecimal> parsed = allocatable;
        if (parsed == null) {
            Map<String, BigDecimal> resources = new HashMap<>();
            columns.resources().forEach((resource, index) -> {
                String cell = cell(index);
                if (cell != null) {
                    resources.put(resource, Quantity.parse(cell));
                }
            });
            // Immutable, so a race between threads only parses twice.
            parsed = Map.copyOf(resources);
            allocatable = parsed;
        }
        return parsed;
    }

    /** The on-demand list price; empty where upstream lists none for the price region. */
    public Optional<BigDecimal> usdPerHour() {
        return usdPerHour;
    }

    /** vCPUs (the instance-cpu label). */
    public int vcpus() {
        return vcpus;
    }

    /** Memory in MiB as EC2 reports it (the instance-memory label). */
    public long memoryMiB() {
        return memoryMiB;
    }

    public String family() {
        return label(FAMILY_LABEL);
    }

    public String architecture() {
        return label(ARCH_LABEL);
    }

    /** Network interfaces of the default network card, which the VPC CNI uses; 0 if upstream lists none. */
    public int interfaces() {
        return interfaces;
    }

    /** IPv4 addresses per interface; 0 if upstream lists none. */
    public int ipv4PerInterface() {
        return ipv4PerInterface;
    }

    /** Allocatable pods as upstream documents them (the ENI-limited count). */
    public int documentedPods() {
        String cell = cell(columns.index(InstanceCatalogue.RESOURCE_COLUMN + "pods"));
        return cell == null ? 0 : Integer.parseInt(cell);
    }

    @Override
    public String toString() {
        return name;
    }
}
