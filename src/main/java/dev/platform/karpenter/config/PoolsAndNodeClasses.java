package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.AMI_FAMILY;
import static dev.platform.karpenter.config.SettingsCatalogue.AMI_VERSION;
import static dev.platform.karpenter.config.SettingsCatalogue.CAPACITY_TYPES;
import static dev.platform.karpenter.config.SettingsCatalogue.CONSOLIDATE_AFTER;
import static dev.platform.karpenter.config.SettingsCatalogue.DEFAULT_NODE_POOL;
import static dev.platform.karpenter.config.SettingsCatalogue.DISCOVERY_TAG_KEY;
import static dev.platform.karpenter.config.SettingsCatalogue.DISCOVERY_TAG_VALUE;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_POOLS;
import static dev.platform.karpenter.config.SettingsCatalogue.TTL_SECONDS_AFTER_EMPTY;
import static dev.platform.karpenter.config.SettingsCatalogue.UNINSTALL_HOOK_IMAGE;

import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.NodePoolRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The pools and the node classes they launch nodes with (Provisioners and AWSNodeTemplates on 0.x, NodePools and
 * EC2NodeClasses from 0.32 on), generation-neutral: nodepools.manifest converts them to each API generation.
 *
 * @param pools              the pool "default" (top-level settings, or the node_pools entry named so) first unless
 *                           default_node_pool = false leaves it out, then node_pools in their order
 * @param nodeClasses        the node classes a pool uses (and "default" where declared), "default" first, then
 *                           node_classes in their order
 * @param uninstallHookImage uninstall_hook_image (SettingsCatalogue)
 * @param addOns             the objects of the add-on kinds (node_overlays...), kind by kind, each in its order
 */
public record PoolsAndNodeClasses(
        List<PoolSettings> pools,
        List<NodeClassSettings> nodeClasses,
        String uninstallHookImage,
        List<AddOnObject> addOns) {

    public PoolsAndNodeClasses(
            List<PoolSettings> pools, List<NodeClassSettings> nodeClasses, String uninstallHookImage) {
        this(pools, nodeClasses, uninstallHookImage, List.of());
    }

    /** The objects of one add-on kind, in their order. */
    public List<AddOnObject> addOns(AddOnKind kind) {
        return addOns.stream().filter(object -> object.kind() == kind).toList();
    }

    /**
     * The Kubernetes project's kubectl image (no shell; maintained on registry.k8s.io), pinned by the digest the
     * Kubernetes image promoter published for v1.28.15 (kubernetes/k8s.io, images/k8s-staging-kubernetes): 1.28 is
     * within kubectl's version skew of every Kubernetes version Karpenter 0.30 and 0.31 support that matters, and
     * the hook uses only delete and wait.
     */
    public static final String DEFAULT_UNINSTALL_HOOK_IMAGE =
            "registry.k8s.io/kubectl:v1.28.15@sha256:498806b1515409c41d0d209fe2f5cd891fc571698ff19b1d3d9749f8b9b10f46";

    public static final String LATEST_AMI = "latest";
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9]([-a-z0-9._/:@]*[a-zA-Z0-9])?");

    static PoolsAndNodeClasses from(
            SettingsReader settings, String clusterName, DeclaredApis apis, Map<String, String> tags) {
        NodePoolRules rules = NodePoolRules.of(apis);
        AmiFamily amiFamily = settings.get(AMI_FAMILY);
        AMI_FAMILY.requireAvailable(amiFamily, apis);
        String tagKey = settings.get(DISCOVERY_TAG_KEY);
        Kubernetes.requireLabelKey(DISCOVERY_TAG_KEY.key(), tagKey);
        String tagValue = settings.optional(DISCOVERY_TAG_VALUE).orElse(clusterName);
        ConfigException.require(!tagValue.isEmpty(), DISCOVERY_TAG_VALUE.key(), "must not be empty", tagValue);
        AwsRules.requireTagKey(DISCOVERY_TAG_KEY.key(), tagKey);
        AwsRules.requireTagValue(DISCOVERY_TAG_VALUE.key(), tagValue);
        List<PoolSettings> pools = pools(settings);
        for (PoolSettings pool : pools) {
            String where = pool.declaredIn().isEmpty()
                    ? ""
                    : NODE_POOLS.key() + " " + ConfigException.quote(pool.name()) + ": ";
            requireValidFor(rules, apis, pool, where);
            requireCapacityTypesOf(apis, pool, pool.specSetting(), where);
        }
        Optional<String> hookImage = settings.optional(UNINSTALL_HOOK_IMAGE);
        hookImage.ifPresent(image -> {
            UNINSTALL_HOOK_IMAGE.requireApplies(apis, "deleting the EC2NodeClass waits for the nodes itself");
            ConfigException.requireMatch(
                    IMAGE,
                    UNINSTALL_HOOK_IMAGE.key(),
                    "must be a container image reference such as \"" + DEFAULT_UNINSTALL_HOOK_IMAGE + "\"",
                    image);
        });
        tags.keySet()
                .forEach(key -> NodePoolRules.reservedTagKey(key).ifPresent(reserved -> {
                    throw new ConfigException("tags key " + ConfigException.quote(key) + " is reserved by Karpenter ("
                            + reserved + "): tags also go on"
                            + " every instance, volume and launch template Karpenter creates, which Karpenter tags with it itself;"
                            + " remove it or choose another key");
                }));
        String amiVersion = amiVersion(settings.get(AMI_VERSION), apis, amiFamily);
        Map<String, String> writtenTopLevel = new LinkedHashMap<>();
        for (Setting<?> typed : List.of(AMI_FAMILY, AMI_VERSION, DISCOVERY_TAG_KEY, DISCOVERY_TAG_VALUE)) {
            if (settings.optional(typed).isPresent()) {
                writtenTopLevel.put(typed.key(), typed.key());
            }
        }
        if (!tags.isEmpty()) {
            writtenTopLevel.put(SettingsCatalogue.TAGS.key(), SettingsCatalogue.TAGS.key());
        }
        NodeClassSettings topLevelClass = new NodeClassSettings(
                NodeClassSettings.DEFAULT_NODE_CLASS,
                amiFamily,
                amiVersion,
                tagKey,
                tagValue,
                tags,
                settings.get(SettingsCatalogue.NODE_CLASS_SPEC),
                "",
                Map.copyOf(writtenTopLevel),
                ObjectMetadata.NONE);
        List<NodeClassSettings> nodeClasses = new ArrayList<>(List.of(topLevelClass));
        boolean defaultClassDeclared = !topLevelClass.spec().isEmpty();
        List<Map<String, Object>> extraClasses = settings.get(SettingsCatalogue.NODE_CLASSES);
        for (int i = 0; i < extraClasses.size(); i++) {
            String where = SettingsCatalogue.NODE_CLASSES.key() + "[" + i + "]";
            try {
                NodeClassSettings nodeClass =
                        nodeClass(SettingsReader.nodeClass(extraClasses.get(i)), topLevelClass, apis, where);
                boolean isDefault = nodeClass.name().equals(NodeClassSettings.DEFAULT_NODE_CLASS);
                if (nodeClasses.stream()
                        .anyMatch(other ->
                                !other.declaredIn().isEmpty() && other.name().equals(nodeClass.name()))) {
                    throw new ConfigException(
                            "name " + ConfigException.quote(nodeClass.name()) + " is used by another node class");
                }
                if (isDefault) {
                    ConfigException.require(
                            topLevelClass.spec().isEmpty(),
                            () -> "name \"default\" makes the entry the node class \"default\", which"
                                    + " node_class_spec also writes: move node_class_spec into the entry's spec");
                    nodeClasses.set(0, nodeClass);
                    defaultClassDeclared = true;
                } else {
                    nodeClasses.add(nodeClass);
                }
            } catch (ConfigException e) {
                throw e.in(where);
            }
        }
        for (PoolSettings pool : pools) {
            String nodeClass = pool.nodeClass();
            if (nodeClasses.stream().noneMatch(known -> known.name().equals(nodeClass))) {
                throw new ConfigException(pool.declaredIn() + ": node_class " + ConfigException.quote(nodeClass)
                        + " is not a node class; use \"default\" or a name from node_classes ("
                        + ConfigException.quoteAll(nodeClasses.stream()
                                .map(NodeClassSettings::name)
                                .toList())
                        + ")");
            }
        }
        // A class no pool launches with is no object: Karpenter would keep it, and its instance profile, for nothing.
        boolean keepDefault = defaultClassDeclared;
        List<NodeClassSettings> rendered = nodeClasses.stream()
                .filter(nodeClass ->
                        pools.stream().anyMatch(pool -> pool.nodeClass().equals(nodeClass.name()))
                                || (keepDefault && nodeClass.name().equals(NodeClassSettings.DEFAULT_NODE_CLASS)))
                .toList();
        return new PoolsAndNodeClasses(
                List.copyOf(pools),
                List.copyOf(rendered),
                hookImage.orElse(DEFAULT_UNINSTALL_HOOK_IMAGE),
                AddOnObject.from(settings, apis));
    }

    /**
     * The pool "default" (the top-level settings, or the entry of node_pools named so; none with default_node_pool =
     * false and no such entry), then the other entries of node_pools in their order.
     */
    private static List<PoolSettings> pools(SettingsReader settings) {
        PoolSettings topLevelPool = PoolSettings.defaults(settings);
        List<Map<String, Object>> extraPools = settings.get(NODE_POOLS);
        List<PoolSettings> entries = new ArrayList<>();
        Optional<PoolSettings> defaultEntry = Optional.empty();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < extraPools.size(); i++) {
            String where = NODE_POOLS.key() + "[" + i + "]";
            try {
                PoolSettings pool = PoolSettings.extra(SettingsReader.pool(extraPools.get(i)), topLevelPool, where);
                if (!names.add(pool.name())) {
                    throw new ConfigException(
                            "name " + ConfigException.quote(pool.name()) + " is used by another pool");
                }
                if (pool.name().equals(PoolSettings.DEFAULT_POOL)) {
                    ConfigException.require(
                            topLevelPool.spec().isEmpty(),
                            () -> "name \"default\" makes the entry the pool \"default\", which node_pool_spec also"
                                    + " writes: move node_pool_spec into the entry's spec");
                    defaultEntry = Optional.of(pool);
                } else {
                    entries.add(pool);
                }
            } catch (ConfigException e) {
                throw e.in(where);
            }
        }
        boolean defaultNodePool = settings.get(DEFAULT_NODE_POOL);
        ConfigException.require(
                defaultNodePool
                        || defaultEntry.isPresent()
                        || topLevelPool.spec().isEmpty(),
                () -> "node_pool_spec writes the pool \"default\", which default_node_pool = false leaves out: remove"
                        + " it, or name a node_pools entry \"default\"");
        ConfigException.require(
                defaultNodePool || !extraPools.isEmpty(),
                () -> "default_node_pool = false with no node_pools declares no pool: Karpenter would launch no node;"
                        + " add node_pools entries or remove default_node_pool");
        List<PoolSettings> pools = new ArrayList<>();
        defaultEntry
                .or(() -> defaultNodePool ? Optional.of(topLevelPool) : Optional.empty())
                .ifPresent(pools::add);
        pools.addAll(entries);
        return pools;
    }

    /**
     * An entry of node_classes ({@code where}: "node_classes[1]"): what "default" gets from the typed settings (role,
     * selectors, tags), its own AMI family (default: that of "default") and AMI version (default: that of "default"
     * for the same family, else "latest"), and its own spec; nothing of node_class_spec. The entry named "default" is
     * the node class "default" itself, its settings over the top-level ones.
     */
    private static NodeClassSettings nodeClass(
            SettingsReader settings, NodeClassSettings defaults, DeclaredApis apis, String where) {
        String name = settings.required(SettingsCatalogue.NODE_CLASS_NAME);
        Kubernetes.requireDnsSubdomain(SettingsCatalogue.NODE_CLASS_NAME.key(), name);
        Optional<AmiFamily> writtenFamily = settings.optional(AMI_FAMILY);
        AmiFamily family = writtenFamily.orElse(defaults.amiFamily());
        AMI_FAMILY.requireAvailable(family, apis);
        Optional<String> writtenVersion = settings.optional(AMI_VERSION);
        String version = writtenVersion.orElse(family == defaults.amiFamily() ? defaults.amiVersion() : LATEST_AMI);
        Map<String, String> written =
                new LinkedHashMap<>(name.equals(NodeClassSettings.DEFAULT_NODE_CLASS) ? defaults.written() : Map.of());
        writtenFamily.ifPresent(value -> written.put(AMI_FAMILY.key(), where + "." + AMI_FAMILY.key()));
        writtenVersion.ifPresent(value -> written.put(AMI_VERSION.key(), where + "." + AMI_VERSION.key()));
        NodeClassSettings nodeClass = new NodeClassSettings(
                name,
                family,
                amiVersion(version, apis, family),
                defaults.discoveryTagKey(),
                defaults.discoveryTagValue(),
                defaults.tags(),
                settings.get(SettingsCatalogue.NODE_CLASS_ENTRY_SPEC),
                where,
                Map.copyOf(written),
                ObjectMetadata.from(
                        where + "." + SettingsCatalogue.NODE_CLASS_METADATA.key(),
                        settings.get(SettingsCatalogue.NODE_CLASS_METADATA)));
        settings.rejectUnknownKeys();
        return nodeClass;
    }

    private static String amiVersion(String version, DeclaredApis apis, AmiFamily family) {
        if (version.equals(LATEST_AMI)) {
            return LATEST_AMI;
        }
        AMI_VERSION.requireApplies(apis, "the node class takes the newest AMI of ami_family; remove ami_version");
        ConfigException.require(
                family.hasReleaseVersions(),
                AMI_VERSION.key(),
                "must be \"latest\" with ami_family " + ConfigException.quote(family.setting())
                        + (family.hasAlias()
                                ? " (upstream's Windows aliases take no other version)"
                                : " (Custom takes its AMIs from the spec's amiSelectorTerms)"),
                version);
        return ConfigException.require(
                family.isReleaseVersion(version),
                AMI_VERSION.key(),
                "must be \"latest\" or a release of the " + family.setting() + " AMIs such as \""
                        + family.exampleVersion() + "\"",
                version);
    }

    /** The node class {@code name}. */
    public NodeClassSettings nodeClass(String name) {
        return nodeClasses.stream()
                .filter(nodeClass -> nodeClass.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node class " + name));
    }

    /**
     * Capacity types the release does not have are refused wherever they are written: capacity_types, or the
     * values of a capacity type requirement in node_requirements or the spec.
     */
    private static void requireCapacityTypesOf(DeclaredApis apis, PoolSettings pool, String specSetting, String where) {
        prefixed(where, () -> CAPACITY_TYPES.requireAvailable(pool.capacityTypes(), apis));
        List<String> available = CAPACITY_TYPES.availableWith(apis);
        for (PoolCapacity.Requirement requirement : PoolCapacity.requirements(pool, specSetting)) {
            for (String value : requirement.values()) {
                CAPACITY_TYPES.allowed().stream()
                        .filter(allowed -> allowed.value().equals(value)
                                && !allowed.releases().contains(apis))
                        .findFirst()
                        .ifPresent(allowed -> {
                            // A spec's place names its pool already (node_pools[0].spec...).
                            String place = requirement.where().startsWith(specSetting)
                                    ? requirement.where()
                                    : where + requirement.where();
                            throw new ConfigException(place + ".values: capacity type "
                                    + ConfigException.quote(value) + " applies to Karpenter "
                                    + allowed.releases().text() + " only; with " + apis.release() + " use "
                                    + ConfigException.quoteAll(available));
                        });
            }
        }
    }

    private static void requireValidFor(NodePoolRules rules, DeclaredApis apis, PoolSettings pool, String where) {
        KarpenterRelease release = apis.release();
        for (String label : pool.labels().keySet()) {
            rules.restrictedLabel(label).ifPresent(why -> {
                throw new ConfigException(where + "node_labels may not set " + ConfigException.quote(label) + ": " + why
                        + " (Karpenter " + release + ")");
            });
        }
        for (NodeRequirement requirement : pool.requirements()) {
            rules.restrictedLabel(requirement.key()).ifPresent(why -> {
                throw new ConfigException(where + "node_requirements may not use the key "
                        + ConfigException.quote(requirement.key()) + ": " + why + " (Karpenter " + release + ")");
            });
        }
        if (pool.ttlSecondsAfterEmpty().isPresent()) {
            prefixed(
                    where,
                    () -> TTL_SECONDS_AFTER_EMPTY.requireApplies(
                            apis,
                            "set consolidation = false and consolidate_after to remove empty nodes after a delay"));
            if (pool.consolidation()) {
                throw new ConfigException(
                        where + "ttl_seconds_after_empty cannot be combined with consolidation = true: the "
                                + rules.poolKind()
                                + " webhook rejects both; set consolidation = false or remove ttl_seconds_after_empty");
            }
        }
        if (pool.consolidateAfter().isPresent()) {
            prefixed(
                    where,
                    () -> CONSOLIDATE_AFTER.requireApplies(
                            apis, "use consolidation = false and ttl_seconds_after_empty"));
        }
        if (pool.consolidateAfter().isPresent()
                && pool.consolidation()
                && rules.consolidateAfterNeedsConsolidationOff()) {
            throw new ConfigException(where + "consolidate_after needs consolidation = false with Karpenter " + release
                    + ": the v1beta1 NodePool accepts it with consolidationPolicy WhenEmpty only");
        }
    }

    /** Runs {@code check}, its message prefixed with {@code where} ("node_pools \"gpu\": "). */
    private static void prefixed(String where, Runnable check) {
        try {
            check.run();
        } catch (ConfigException e) {
            throw where.isEmpty() ? e : new ConfigException(where + e.getMessage());
        }
    }
}
