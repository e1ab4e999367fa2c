package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.ARCHITECTURES;
import static dev.platform.karpenter.config.SettingsCatalogue.CAPACITY_TYPES;
import static dev.platform.karpenter.config.SettingsCatalogue.CONSOLIDATE_AFTER;
import static dev.platform.karpenter.config.SettingsCatalogue.CONSOLIDATION;
import static dev.platform.karpenter.config.SettingsCatalogue.CPU_LIMIT;
import static dev.platform.karpenter.config.SettingsCatalogue.EXPIRE_AFTER;
import static dev.platform.karpenter.config.SettingsCatalogue.INSTANCE_CATEGORIES;
import static dev.platform.karpenter.config.SettingsCatalogue.INSTANCE_GENERATION_MIN;
import static dev.platform.karpenter.config.SettingsCatalogue.MEMORY_LIMIT;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_LABELS;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_POOL_NAME;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_REQUIREMENTS;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_TAINTS;
import static dev.platform.karpenter.config.SettingsCatalogue.TTL_SECONDS_AFTER_EMPTY;

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
 * <p>Each component is the setting of the same name in {@link SettingsCatalogue} (labels: node_labels, taints:
 * node_taints, requirements: node_requirements), where its default, bounds and releases are declared.
 *
 * @param name metadata.name of the pool
 * @param nodeClass node_class: the node class its nodes are launched with (default "default")
 * @param spec      node_pool_spec, or the entry's spec: upstream fields merged over what the settings produce; never
 *                  inherited
 * @param declaredIn where it is written: "" for the top-level settings, "node_pools[2]" for an entry
 * @param written   the typed settings written for this very pool (not inherited, not defaults), each with its place
 *                  for messages: "cpu_limit" or "node_pools[2].cpu_limit"
 * @param metadata  the entry's metadata (labels, annotations)
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
        Map<String, Object> spec,
        String declaredIn,
        Map<String, String> written,
        ObjectMetadata metadata) {

    public static final String DEFAULT_POOL = "default";

    /** The typed settings whose being written explicitly matters to the rules of nodepools.manifest.SpecRules. */
    private static final List<Setting<?>> TRACKED = List.of(
            CAPACITY_TYPES,
            ARCHITECTURES,
            INSTANCE_CATEGORIES,
            INSTANCE_GENERATION_MIN,
            NODE_REQUIREMENTS,
            NODE_LABELS,
            NODE_TAINTS,
            CPU_LIMIT,
            MEMORY_LIMIT,
            CONSOLIDATION,
            CONSOLIDATE_AFTER,
            EXPIRE_AFTER);

    private static final Pattern INSTANCE_CATEGORY = Pattern.compile("[a-z]{1,4}");

    /** The pool "default" from the top-level settings, with the catalogue's defaults. */
    static PoolSettings defaults(SettingsReader settings) {
        return read(
                settings,
                DEFAULT_POOL,
                NodeClassSettings.DEFAULT_NODE_CLASS,
                settings.get(SettingsCatalogue.NODE_POOL_SPEC),
                new PoolSettings(
                        DEFAULT_POOL,
                        defaultOf(CAPACITY_TYPES),
                        defaultOf(ARCHITECTURES),
                        defaultOf(INSTANCE_CATEGORIES),
                        defaultOf(INSTANCE_GENERATION_MIN),
                        defaultOf(CPU_LIMIT),
                        defaultOf(MEMORY_LIMIT),
                        defaultOf(CONSOLIDATION),
                        CONSOLIDATE_AFTER.defaultValue(),
                        defaultOf(EXPIRE_AFTER),
                        TTL_SECONDS_AFTER_EMPTY.defaultValue(),
                        defaultOf(NODE_LABELS),
                        List.of(),
                        List.of(),
                        NodeClassSettings.DEFAULT_NODE_CLASS,
                        Map.of(),
                        "",
                        Map.of(),
                        ObjectMetadata.NONE),
                "");
    }

    /** Where its spec is written: node_pool_spec, or node_pools[2].spec. */
    public String specSetting() {
        return declaredIn.isEmpty() ? SettingsCatalogue.NODE_POOL_SPEC.key() : declaredIn + ".spec";
    }

    /** Where {@code setting} is written for this pool, if it is. */
    public Optional<String> written(Setting<?> setting) {
        return Optional.ofNullable(written.get(setting.key()));
    }

    /**
     * A pool of node_pools ({@code where}: "node_pools[2]"): its own name and settings, the rest taken from
     * {@code inherited}; the entry named "default" is the pool of the top-level settings itself.
     */
    static PoolSettings extra(SettingsReader settings, PoolSettings inherited, String where) {
        String name = settings.required(NODE_POOL_NAME);
        // The pool's name is also a label value (karpenter.sh/nodepool, karpenter.sh/provisioner-name) on its nodes.
        Kubernetes.requireDnsSubdomain(NODE_POOL_NAME.key(), name);
        Kubernetes.requireLabelValue(NODE_POOL_NAME.key(), name);
        PoolSettings pool = read(
                settings,
                name,
                settings.get(SettingsCatalogue.NODE_POOL_NODE_CLASS),
                settings.get(SettingsCatalogue.NODE_POOL_ENTRY_SPEC),
                inherited,
                where);
        settings.rejectUnknownKeys();
        return pool;
    }

    private static <T> T defaultOf(Setting<T> setting) {
        return setting.defaultValue().orElseThrow();
    }

    private static PoolSettings read(
            SettingsReader settings,
            String name,
            String nodeClass,
            Map<String, Object> spec,
            PoolSettings inherited,
            String where) {
        List<String> categories = settings.optional(INSTANCE_CATEGORIES).orElse(inherited.instanceCategories);
        for (String category : categories) {
            ConfigException.requireMatch(
                    INSTANCE_CATEGORY,
                    INSTANCE_CATEGORIES.key(),
                    "must hold EC2 instance categories such as \"c\", \"m\" or \"r\"",
                    category);
        }
        String memoryLimit = settings.optional(MEMORY_LIMIT).orElse(inherited.memoryLimit);
        Kubernetes.requirePositiveQuantity(MEMORY_LIMIT.key(), memoryLimit, "\"1000Gi\"");
        Optional<String> consolidateAfter = settings.optional(CONSOLIDATE_AFTER).or(() -> inherited.consolidateAfter);
        consolidateAfter.ifPresent(value -> Kubernetes.requireDuration(CONSOLIDATE_AFTER.key(), value, true));
        String expireAfter = settings.optional(EXPIRE_AFTER).orElse(inherited.expireAfter);
        Kubernetes.requireDuration(EXPIRE_AFTER.key(), expireAfter, false);
        Map<String, String> labels = settings.get(NODE_LABELS);
        labels.forEach((key, value) -> {
            Kubernetes.requireLabelKey(NODE_LABELS.key(), key);
            Kubernetes.requireLabelValue(NODE_LABELS.key() + "." + key, value);
        });
        List<NodeTaint> taints = each(settings.get(NODE_TAINTS), NODE_TAINTS, NodeTaint::from);
        List<NodeRequirement> requirements =
                each(settings.get(NODE_REQUIREMENTS), NODE_REQUIREMENTS, NodeRequirement::from);
        return new PoolSettings(
                name,
                settings.optional(CAPACITY_TYPES).orElse(inherited.capacityTypes),
                settings.optional(ARCHITECTURES).orElse(inherited.architectures),
                categories,
                settings.optional(INSTANCE_GENERATION_MIN).orElse(inherited.instanceGenerationMin),
                settings.optional(CPU_LIMIT).orElse(inherited.cpuLimit),
                memoryLimit,
                settings.optional(CONSOLIDATION).orElse(inherited.consolidation),
                consolidateAfter,
                expireAfter,
                settings.optional(TTL_SECONDS_AFTER_EMPTY).or(() -> inherited.ttlSecondsAfterEmpty),
                labels.isEmpty() ? inherited.labels : labels,
                taints.isEmpty() ? inherited.taints : taints,
                requirements.isEmpty() ? inherited.requirements : requirements,
                nodeClass,
                spec,
                where,
                written(settings, where, name.equals(DEFAULT_POOL) ? inherited.written : Map.of()),
                where.isEmpty()
                        ? ObjectMetadata.NONE
                        : ObjectMetadata.from(
                                where + "." + SettingsCatalogue.NODE_POOL_METADATA.key(),
                                settings.get(SettingsCatalogue.NODE_POOL_METADATA)));
    }

    /** The tracked settings {@code settings} writes, over {@code before} (the top level's, for the entry "default"). */
    private static Map<String, String> written(SettingsReader settings, String where, Map<String, String> before) {
        Map<String, String> written = new java.util.LinkedHashMap<>(before);
        for (Setting<?> setting : TRACKED) {
            // An empty list or map counts as left out, as everywhere in the settings.
            boolean writtenHere = settings.optional(setting)
                    .filter(value -> !(value instanceof java.util.Collection<?> c && c.isEmpty())
                            && !(value instanceof Map<?, ?> m && m.isEmpty()))
                    .isPresent();
            if (writtenHere) {
                written.put(setting.key(), where.isEmpty() ? setting.key() : where + "." + setting.key());
            }
        }
        return Map.copyOf(written);
    }

    /** Each object of a list setting as a {@code T}, errors naming its index: node_taints[1]. */
    static <T> List<T> each(
            List<Map<String, Object>> objects,
            Setting<?> setting,
            java.util.function.BiFunction<String, Map<String, Object>, T> from) {
        List<T> result = new ArrayList<>();
        for (int i = 0; i < objects.size(); i++) {
            result.add(from.apply(setting.key() + "[" + i + "]", objects.get(i)));
        }
        return List.copyOf(result);
    }
}
