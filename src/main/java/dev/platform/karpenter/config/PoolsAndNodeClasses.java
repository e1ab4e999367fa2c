package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.AMI_FAMILY;
import static dev.platform.karpenter.config.SettingsCatalogue.AMI_VERSION;
import static dev.platform.karpenter.config.SettingsCatalogue.CAPACITY_TYPES;
import static dev.platform.karpenter.config.SettingsCatalogue.CONSOLIDATE_AFTER;
import static dev.platform.karpenter.config.SettingsCatalogue.DISCOVERY_TAG_KEY;
import static dev.platform.karpenter.config.SettingsCatalogue.DISCOVERY_TAG_VALUE;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_POOLS;
import static dev.platform.karpenter.config.SettingsCatalogue.TTL_SECONDS_AFTER_EMPTY;
import static dev.platform.karpenter.config.SettingsCatalogue.UNINSTALL_HOOK_IMAGE;

import dev.platform.karpenter.versions.DeclaredApis;
import dev.platform.karpenter.versions.KarpenterRelease;
import dev.platform.karpenter.versions.NodePoolRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The pools and the node classes they launch nodes with (Provisioners and AWSNodeTemplates on 0.x, NodePools and
 * EC2NodeClasses from 0.32 on), generation-neutral: nodepools.manifest converts them to each API generation.
 *
 * @param pools              the pool "default" (top-level settings) first, then node_pools in their order
 * @param nodeClasses        the node class "default" (top-level settings) first, then node_classes in their order
 * @param uninstallHookImage uninstall_hook_image (SettingsCatalogue)
 * @param nodeOverlays       node_overlays, in their order (Karpenter 1.7 on)
 */
public record PoolsAndNodeClasses(
        List<PoolSettings> pools,
        List<NodeClassSettings> nodeClasses,
        String uninstallHookImage,
        List<NodeOverlaySettings> nodeOverlays) {

    public PoolsAndNodeClasses(
            List<PoolSettings> pools, List<NodeClassSettings> nodeClasses, String uninstallHookImage) {
        this(pools, nodeClasses, uninstallHookImage, List.of());
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
            Settings settings, String clusterName, DeclaredApis apis, Map<String, String> tags) {
        NodePoolRules rules = NodePoolRules.of(apis);
        AmiFamily amiFamily = settings.get(AMI_FAMILY);
        AMI_FAMILY.requireAvailable(amiFamily, apis);
        String tagKey = settings.get(DISCOVERY_TAG_KEY);
        Kubernetes.requireLabelKey(DISCOVERY_TAG_KEY.key(), tagKey);
        String tagValue = settings.optional(DISCOVERY_TAG_VALUE).orElse(clusterName);
        ConfigException.require(!tagValue.isEmpty(), DISCOVERY_TAG_VALUE.key(), "must not be empty", tagValue);
        AwsRules.requireTagKey(DISCOVERY_TAG_KEY.key(), tagKey);
        AwsRules.requireTagValue(DISCOVERY_TAG_VALUE.key(), tagValue);
        List<PoolSettings> pools = new ArrayList<>();
        PoolSettings defaultPool = PoolSettings.defaults(settings);
        pools.add(defaultPool);
        List<Map<String, Object>> extraPools = settings.get(NODE_POOLS);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < extraPools.size(); i++) {
            String where = "node_pools[" + i + "]";
            try {
                PoolSettings pool = PoolSettings.extra(Settings.pool(extraPools.get(i)), defaultPool);
                if (!names.add(pool.name())) {
                    throw new ConfigException(
                            "name " + ConfigException.quote(pool.name()) + " is used by another pool");
                }
                pools.add(pool);
            } catch (ConfigException e) {
                throw e.in(where);
            }
        }
        for (int i = 0; i < pools.size(); i++) {
            PoolSettings pool = pools.get(i);
            String where = i == 0 ? "" : "node_pools " + ConfigException.quote(pool.name()) + ": ";
            requireValidFor(rules, apis, pool, where);
            requireCapacityTypesOf(apis, pool, specSetting(i), where);
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
        NodeClassSettings defaultClass = new NodeClassSettings(
                NodeClassSettings.DEFAULT_NODE_CLASS,
                amiFamily,
                amiVersion,
                tagKey,
                tagValue,
                tags,
                settings.get(SettingsCatalogue.NODE_CLASS_SPEC));
        List<NodeClassSettings> nodeClasses = new ArrayList<>(List.of(defaultClass));
        List<Map<String, Object>> extraClasses = settings.get(SettingsCatalogue.NODE_CLASSES);
        for (int i = 0; i < extraClasses.size(); i++) {
            try {
                NodeClassSettings nodeClass = nodeClass(Settings.nodeClass(extraClasses.get(i)), defaultClass, apis);
                if (nodeClasses.stream().anyMatch(other -> other.name().equals(nodeClass.name()))) {
                    throw new ConfigException(
                            "name " + ConfigException.quote(nodeClass.name()) + " is used by another node class");
                }
                nodeClasses.add(nodeClass);
            } catch (ConfigException e) {
                throw e.in("node_classes[" + i + "]");
            }
        }
        for (int i = 1; i < pools.size(); i++) {
            String nodeClass = pools.get(i).nodeClass();
            if (nodeClasses.stream().noneMatch(known -> known.name().equals(nodeClass))) {
                throw new ConfigException("node_pools[" + (i - 1) + "]: node_class " + ConfigException.quote(nodeClass)
                        + " is not a node class; use \"default\" or a name from node_classes ("
                        + ConfigException.quoteAll(nodeClasses.stream()
                                .map(NodeClassSettings::name)
                                .toList())
                        + ")");
            }
        }
        return new PoolsAndNodeClasses(
                List.copyOf(pools),
                List.copyOf(nodeClasses),
                hookImage.orElse(DEFAULT_UNINSTALL_HOOK_IMAGE),
                NodeOverlaySettings.from(settings, apis));
    }

    /**
     * An entry of node_classes: what "default" gets from the typed settings (role, selectors, tags), its own AMI
     * family (default: that of "default") and AMI version (default: that of "default" for the same family, else
     * "latest"), and its own spec; nothing of node_class_spec.
     */
    private static NodeClassSettings nodeClass(Settings settings, NodeClassSettings defaults, DeclaredApis apis) {
        String name = settings.required(SettingsCatalogue.NODE_CLASS_NAME);
        Kubernetes.requireDnsSubdomain(SettingsCatalogue.NODE_CLASS_NAME.key(), name);
        ConfigException.require(
                !name.equals(NodeClassSettings.DEFAULT_NODE_CLASS),
                SettingsCatalogue.NODE_CLASS_NAME.key(),
                "must not be \"default\" (the node class of the top-level settings and node_class_spec)",
                name);
        AmiFamily family = settings.optional(AMI_FAMILY).orElse(defaults.amiFamily());
        AMI_FAMILY.requireAvailable(family, apis);
        String version = settings.optional(AMI_VERSION)
                .orElse(family == defaults.amiFamily() ? defaults.amiVersion() : LATEST_AMI);
        NodeClassSettings nodeClass = new NodeClassSettings(
                name,
                family,
                amiVersion(version, apis, family),
                defaults.discoveryTagKey(),
                defaults.discoveryTagValue(),
                defaults.tags(),
                settings.get(SettingsCatalogue.NODE_CLASS_ENTRY_SPEC));
        settings.rejectUnknownKeys();
        return nodeClass;
    }

    private static String amiVersion(String version, DeclaredApis apis, AmiFamily family) {
        if (version.equals(LATEST_AMI)) {
            return LATEST_AMI;
        }
        AMI_VERSION.requireApplies(apis, "the node class takes the newest AMI of ami_family; remove ami_version");
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

    /** The AMI families of the node classes, each once. */
    public List<AmiFamily> amiFamilies() {
        return nodeClasses.stream().map(NodeClassSettings::amiFamily).distinct().toList();
    }

    /**
     * Whether any pool may launch spot capacity (the default pools do), by its capacity_types, node_requirements or
     * the requirements of its spec.
     */
    public boolean allowsSpot() {
        return anyPoolMayLaunch(PoolCapacity.SPOT);
    }

    /**
     * Whether any pool may launch into capacity reservations (capacity type "reserved", by its settings or spec), so
     * that the release's capacity reservation handling must be on.
     */
    public boolean allowsReserved() {
        return anyPoolMayLaunch(PoolCapacity.RESERVED);
    }

    /** The pool "default" takes node_pool_spec, the others their entry's spec. */
    private static String specSetting(int poolIndex) {
        return poolIndex == 0
                ? SettingsCatalogue.NODE_POOL_SPEC.key()
                : NODE_POOLS.key() + "[" + (poolIndex - 1) + "]." + SettingsCatalogue.NODE_POOL_ENTRY_SPEC.key();
    }

    private boolean anyPoolMayLaunch(String capacityType) {
        for (int i = 0; i < pools.size(); i++) {
            if (PoolCapacity.of(pools.get(i), specSetting(i)).contains(capacityType)) {
                return true;
            }
        }
        return false;
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
