package dev.platform.karpenter.config;

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
 * @param uninstallHookImage uninstall_hook_image: 0.x only, a kubectl image for the Job that deletes the
 *                           Provisioners and waits for their nodes on destroy
 */
public record PoolsAndNodeClasses(
        List<PoolSettings> pools, List<NodeClassSettings> nodeClasses, String uninstallHookImage) {

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
        KarpenterRelease release = apis.release();
        NodePoolRules rules = NodePoolRules.of(apis);
        AmiFamily amiFamily = accepted(settings.choice("ami_family", AmiFamily.class), rules, release);
        String tagKey = settings.string("discovery_tag_key");
        Kubernetes.requireLabelKey("discovery_tag_key", tagKey);
        String tagValue = settings.string("discovery_tag_value", clusterName);
        if (tagValue.isEmpty()) {
            throw new ConfigException("discovery_tag_value must not be empty");
        }
        AwsRules.requireTagKey("discovery_tag_key", tagKey);
        AwsRules.requireTagValue("discovery_tag_value", tagValue);
        List<PoolSettings> pools = new ArrayList<>();
        PoolSettings defaultPool = PoolSettings.defaults(settings);
        pools.add(defaultPool);
        List<Map<String, Object>> extraPools = settings.objectList("node_pools");
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
        for (PoolSettings pool : pools) {
            String where = pool.name().equals(PoolSettings.DEFAULT_POOL)
                    ? ""
                    : "node_pools " + ConfigException.quote(pool.name()) + ": ";
            requireValidFor(rules, release, pool, where);
        }
        Optional<String> hookImage = settings.optionalString("uninstall_hook_image");
        hookImage.ifPresent(image -> {
            if (rules.nodeClassDeletionWaitsForNodes()) {
                throw new ConfigException("uninstall_hook_image applies to Karpenter 0.x only: with " + release
                        + " deleting the EC2NodeClass waits for the nodes itself");
            }
            if (!IMAGE.matcher(image).matches()) {
                throw new ConfigException("uninstall_hook_image must be a container image reference such as \""
                        + DEFAULT_UNINSTALL_HOOK_IMAGE + "\", got " + ConfigException.quote(image) + "");
            }
        });
        tags.keySet()
                .forEach(key -> NodePoolRules.reservedTagKey(key).ifPresent(reserved -> {
                    throw new ConfigException("tags key " + ConfigException.quote(key) + " is reserved by Karpenter ("
                            + reserved + "): tags also go on"
                            + " every instance, volume and launch template Karpenter creates, which Karpenter tags with it itself;"
                            + " remove it or choose another key");
                }));
        String amiVersion = amiVersion(settings.optionalString("ami_version"), rules, release, amiFamily);
        NodeClassSettings defaultClass = new NodeClassSettings(
                NodeClassSettings.DEFAULT_NODE_CLASS,
                amiFamily,
                amiVersion,
                tagKey,
                tagValue,
                tags,
                settings.object("node_class_spec"));
        List<NodeClassSettings> nodeClasses = new ArrayList<>(List.of(defaultClass));
        List<Map<String, Object>> extraClasses = settings.objectList("node_classes");
        for (int i = 0; i < extraClasses.size(); i++) {
            try {
                NodeClassSettings nodeClass =
                        nodeClass(Settings.nodeClass(extraClasses.get(i)), defaultClass, rules, release);
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
                        + String.join(
                                ", ",
                                nodeClasses.stream()
                                        .map(known -> ConfigException.quote(known.name()))
                                        .toList())
                        + ")");
            }
        }
        return new PoolsAndNodeClasses(
                List.copyOf(pools), List.copyOf(nodeClasses), hookImage.orElse(DEFAULT_UNINSTALL_HOOK_IMAGE));
    }

    /**
     * An entry of node_classes: what "default" gets from the typed settings (role, selectors, tags), its own AMI
     * family (default: that of "default") and AMI version (default: that of "default" for the same family, else
     * "latest"), and its own spec; nothing of node_class_spec.
     */
    private static NodeClassSettings nodeClass(
            Settings settings, NodeClassSettings defaults, NodePoolRules rules, KarpenterRelease release) {
        String name = settings.requiredString("name");
        Kubernetes.requireDnsSubdomain("name", name);
        if (name.equals(NodeClassSettings.DEFAULT_NODE_CLASS)) {
            throw new ConfigException(
                    "name \"default\" is the node class of the top-level settings (node_class_spec); choose another name");
        }
        AmiFamily family = settings.optionalString("ami_family")
                .map(value -> accepted(SettingValue.parse(AmiFamily.class, "ami_family", value), rules, release))
                .orElse(defaults.amiFamily());
        Optional<String> version = settings.optionalString("ami_version")
                .or(() ->
                        family == defaults.amiFamily() && !defaults.amiVersion().equals(LATEST_AMI)
                                ? Optional.of(defaults.amiVersion())
                                : Optional.empty());
        NodeClassSettings nodeClass = new NodeClassSettings(
                name,
                family,
                amiVersion(version, rules, release, family),
                defaults.discoveryTagKey(),
                defaults.discoveryTagValue(),
                defaults.tags(),
                settings.object("spec"));
        settings.rejectUnknownKeys();
        return nodeClass;
    }

    private static AmiFamily accepted(AmiFamily family, NodePoolRules rules, KarpenterRelease release) {
        if (!family.acceptedBy(rules)) {
            throw new ConfigException("ami_family \"" + family.setting() + "\" is not available with Karpenter "
                    + release + "; use one of "
                    + String.join(
                            ", ",
                            AmiFamily.acceptedByAll(rules).stream()
                                    .map(AmiFamily::setting)
                                    .toList()));
        }
        return family;
    }

    private static String amiVersion(
            Optional<String> version, NodePoolRules rules, KarpenterRelease release, AmiFamily family) {
        if (version.isEmpty() || version.get().equals(LATEST_AMI)) {
            return LATEST_AMI;
        }
        if (!rules.hasAmiAlias()) {
            throw new ConfigException(
                    "ami_version applies to Karpenter 1.x NodeClasses only (the v1 amiSelectorTerms alias);" + " with "
                            + release + " the node class takes the newest AMI of ami_family; remove ami_version");
        }
        if (!family.isReleaseVersion(version.get())) {
            throw new ConfigException("ami_version must be \"latest\" or a release of the " + family.setting()
                    + " AMIs such as \"" + family.exampleVersion() + "\", got " + ConfigException.quote(version.get()));
        }
        return version.get();
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

    /** Whether any pool may launch spot capacity (the default pools do). */
    public boolean allowsSpot() {
        return pools.stream().anyMatch(pool -> pool.capacityTypes().contains("spot"));
    }

    private static void requireValidFor(
            NodePoolRules rules, KarpenterRelease release, PoolSettings pool, String where) {
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
            if (!rules.hasTtlSecondsAfterEmpty()) {
                throw new ConfigException(
                        where + "ttl_seconds_after_empty applies to Karpenter v1alpha5 Provisioners only"
                                + " (0.30 to 0.32); with " + release
                                + " set consolidation = false and consolidate_after to remove"
                                + " empty nodes after a delay");
            }
            if (pool.consolidation()) {
                throw new ConfigException(
                        where + "ttl_seconds_after_empty cannot be combined with consolidation = true: the "
                                + rules.poolKind()
                                + " webhook rejects both; set consolidation = false or remove ttl_seconds_after_empty");
            }
        }
        if (pool.consolidateAfter().isPresent() && !rules.hasConsolidateAfter()) {
            throw new ConfigException(where + "consolidate_after applies to Karpenter 0.32 and later only; with "
                    + release + " use consolidation = false and ttl_seconds_after_empty");
        }
        if (pool.consolidateAfter().isPresent()
                && pool.consolidation()
                && rules.consolidateAfterNeedsConsolidationOff()) {
            throw new ConfigException(where + "consolidate_after needs consolidation = false with Karpenter " + release
                    + ": the v1beta1 NodePool accepts it with consolidationPolicy WhenEmpty only");
        }
    }
}
