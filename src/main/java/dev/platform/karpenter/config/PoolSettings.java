package dev.platform.karpenter.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One Karpenter pool (a Provisioner on 0.x, a NodePool on 1.x), as the tfvars describe it. The top-level settings
 * describe the pool "default"; each entry of node_pools describes another pool and takes every setting it does not
 * give from the top level.
 *
 * @param name                  metadata.name of the pool
 * @param capacityTypes         capacity_types: "spot" and/or "on-demand" (default both)
 * @param architectures         architectures: "amd64" and/or "arm64" (default amd64, as upstream's default pool)
 * @param instanceCategories    instance_categories: EC2 instance categories (default c, m, r); empty: any
 * @param instanceGenerationMin instance_generation_min: oldest EC2 generation allowed (default 3, i.e. upstream's
 *                              "instance-generation Gt 2")
 * @param cpuLimit              cpu_limit: most vCPUs the pool may launch in total (default 1000)
 * @param memoryLimit           memory_limit: most memory the pool may launch, a Kubernetes quantity (default 1000Gi)
 * @param consolidation         consolidation: replace or remove underused nodes (default true)
 * @param consolidateAfter      consolidate_after: 1.x only, how long a node must be consolidatable first (default 1m)
 * @param expireAfter           expire_after: node lifetime, e.g. "720h" (default), or "Never"
 * @param ttlSecondsAfterEmpty  ttl_seconds_after_empty: 0.x only, with consolidation = false: remove empty nodes
 * @param labels                node_labels: labels of every node of the pool
 * @param taints                node_taints: taints of every node of the pool
 * @param requirements          node_requirements: extra scheduling requirements
 * @param nodeClass             node_class: the node class its nodes are launched with (default "default")
 * @param spec                  node_pool_spec, or the entry's spec: upstream fields merged over what the settings
 *                              produce; never inherited
 */
public record PoolSettings(
        String name,
        List<String> capacityTypes,
        List<String> architectures,
        List<String> instanceCategories,
        int instanceGenerationMin,
        int cpuLimit,
        String memoryLimit,
        boolean consolidation,
        Optional<String> consolidateAfter,
        String expireAfter,
        Optional<Integer> ttlSecondsAfterEmpty,
        Map<String, String> labels,
        List<NodeTaint> taints,
        List<NodeRequirement> requirements,
        String nodeClass,
        Map<String, Object> spec) {

    public static final String DEFAULT_POOL = "default";
    static final List<String> CAPACITY_TYPES = List.of("spot", "on-demand");
    static final List<String> ARCHITECTURES = List.of("amd64", "arm64");

    private static final Pattern INSTANCE_CATEGORY = Pattern.compile("[a-z]{1,4}");

    /** The pool "default" from the top-level settings, with the documented defaults. */
    static PoolSettings defaults(Settings settings) {
        return read(
                settings,
                DEFAULT_POOL,
                NodeClassSettings.DEFAULT_NODE_CLASS,
                settings.object("node_pool_spec"),
                new PoolSettings(
                        DEFAULT_POOL,
                        SettingsCatalogue.defaultOf("capacity_types"),
                        SettingsCatalogue.defaultOf("architectures"),
                        SettingsCatalogue.defaultOf("instance_categories"),
                        Math.toIntExact(SettingsCatalogue.<Long>defaultOf("instance_generation_min")),
                        Math.toIntExact(SettingsCatalogue.<Long>defaultOf("cpu_limit")),
                        SettingsCatalogue.defaultOf("memory_limit"),
                        SettingsCatalogue.defaultOf("consolidation"),
                        Optional.empty(),
                        SettingsCatalogue.defaultOf("expire_after"),
                        Optional.empty(),
                        Map.of(),
                        List.of(),
                        List.of(),
                        NodeClassSettings.DEFAULT_NODE_CLASS,
                        Map.of()));
    }

    /** A pool of node_pools: its own name and settings, the rest taken from {@code inherited}. */
    static PoolSettings extra(Settings settings, PoolSettings inherited) {
        String name = settings.requiredString("name");
        // The pool's name is also a label value (karpenter.sh/nodepool, karpenter.sh/provisioner-name) on its nodes.
        Kubernetes.requireDnsSubdomain("name", name);
        Kubernetes.requireLabelValue("name", name);
        if (name.equals(DEFAULT_POOL)) {
            throw new ConfigException("name \"default\" is the pool of the top-level settings; choose another name");
        }
        String nodeClass = settings.string("node_class", NodeClassSettings.DEFAULT_NODE_CLASS);
        PoolSettings pool = read(settings, name, nodeClass, settings.object("spec"), inherited);
        settings.rejectUnknownKeys();
        return pool;
    }

    private static PoolSettings read(
            Settings settings, String name, String nodeClass, Map<String, Object> spec, PoolSettings inherited) {
        List<String> capacityTypes = oneOrMoreOf(settings, "capacity_types", inherited.capacityTypes, CAPACITY_TYPES);
        List<String> architectures = oneOrMoreOf(settings, "architectures", inherited.architectures, ARCHITECTURES);
        List<String> categories = settings.stringList("instance_categories", inherited.instanceCategories);
        for (String category : categories) {
            if (!INSTANCE_CATEGORY.matcher(category).matches()) {
                throw new ConfigException(
                        "instance_categories must hold EC2 instance categories such as \"c\", \"m\" or \"r\", got "
                                + ConfigException.quote(category) + "");
            }
        }
        int generation = settings.integer("instance_generation_min", inherited.instanceGenerationMin);
        if (generation < 1) {
            throw new ConfigException("instance_generation_min must be at least 1, got " + generation);
        }
        int cpuLimit = settings.integer("cpu_limit", inherited.cpuLimit);
        if (cpuLimit < 1) {
            throw new ConfigException("cpu_limit must be a positive whole number of vCPUs, got " + cpuLimit);
        }
        String memoryLimit = settings.string("memory_limit", inherited.memoryLimit);
        Kubernetes.requirePositiveQuantity("memory_limit", memoryLimit, "\"1000Gi\"");
        Optional<String> consolidateAfter =
                settings.optionalString("consolidate_after").or(() -> inherited.consolidateAfter);
        consolidateAfter.ifPresent(value -> Kubernetes.requireDuration("consolidate_after", value, true));
        String expireAfter = settings.string("expire_after", inherited.expireAfter);
        Kubernetes.requireDuration("expire_after", expireAfter, false);
        Optional<Integer> ttl =
                settings.optionalInteger("ttl_seconds_after_empty").or(() -> inherited.ttlSecondsAfterEmpty);
        ttl.ifPresent(seconds -> {
            if (seconds < 0) {
                throw new ConfigException("ttl_seconds_after_empty must not be negative, got " + seconds);
            }
        });
        Map<String, String> labels = settings.stringMap("node_labels");
        labels.forEach((key, value) -> {
            Kubernetes.requireLabelKey("node_labels", key);
            Kubernetes.requireLabelValue("node_labels." + key, value);
        });
        List<NodeTaint> taints = new ArrayList<>();
        List<Map<String, Object>> taintSettings = settings.objectList("node_taints");
        for (int i = 0; i < taintSettings.size(); i++) {
            taints.add(NodeTaint.from("node_taints[" + i + "]", taintSettings.get(i)));
        }
        List<NodeRequirement> requirements = new ArrayList<>();
        List<Map<String, Object>> requirementSettings = settings.objectList("node_requirements");
        for (int i = 0; i < requirementSettings.size(); i++) {
            requirements.add(NodeRequirement.from("node_requirements[" + i + "]", requirementSettings.get(i)));
        }
        return new PoolSettings(
                name,
                capacityTypes,
                architectures,
                categories,
                generation,
                cpuLimit,
                memoryLimit,
                settings.bool("consolidation", inherited.consolidation),
                consolidateAfter,
                expireAfter,
                ttl,
                labels.isEmpty() ? inherited.labels : labels,
                taints.isEmpty() ? inherited.taints : List.copyOf(taints),
                requirements.isEmpty() ? inherited.requirements : List.copyOf(requirements),
                nodeClass,
                spec);
    }

    private static List<String> oneOrMoreOf(
            Settings settings, String key, List<String> defaultValue, List<String> allowed) {
        List<String> values = settings.stringList(key, defaultValue);
        if (values.isEmpty()) {
            throw new ConfigException(key + " must name at least one of " + quoted(allowed));
        }
        for (String value : values) {
            if (!allowed.contains(value)) {
                throw new ConfigException(
                        key + " must contain only " + quoted(allowed) + ", got " + ConfigException.quote(value) + "");
            }
        }
        return values;
    }

    private static String quoted(List<String> values) {
        return String.join(" or ", values.stream().map(v -> "\"" + v + "\"").toList());
    }
}
