package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AddOnObject;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.ObjectMetadata;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.config.Setting;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One API generation's objects: each subclass converts a generation-neutral pool and node class to its kinds and
 * field names, in one place; the objects are then the same in every generation: a pool object per pool, named after
 * it, then a node class object per node class.
 */
public abstract sealed class GenerationManifests implements NodePoolManifests
        permits V1Alpha5Manifests, V1Beta1Manifests, V1Manifests {
    static final String NODE_CLASS_REF_REASON = "is set from node_class: name the node class there";
    static final String ROLE_REASON =
            "is set by the project: every node class uses the project's node role (node_group_name, iam_role_arn or"
                    + " create_iam_role), so the controller's iam:PassRole names exactly that role";
    static final Map<List<String>, String> OWNED_ROLE_FIELDS =
            Map.of(List.of("role"), ROLE_REASON, List.of("instanceProfile"), ROLE_REASON);
    static final String V0_INSTANCE_PROFILE_REASON =
            "is set by the project: nodes take the instance profile it makes for the project's node role"
                    + " (node_group_name, iam_role_arn or create_iam_role), the controller's default instance profile";

    private final ApiGeneration generation;
    private final KubernetesObject.Type poolType;
    private final KubernetesObject.Type nodeClassType;

    GenerationManifests(ApiGeneration generation, KubernetesObject.Type poolType, KubernetesObject.Type nodeClassType) {
        this.generation = generation;
        this.poolType = poolType;
        this.nodeClassType = nodeClassType;
    }

    /** The generation this converts to. */
    public ApiGeneration generation() {
        return generation;
    }

    /** The kind and apiVersion of this generation's pools. */
    public KubernetesObject.Type poolType() {
        return poolType;
    }

    /** The kind and apiVersion of this generation's node classes. */
    public KubernetesObject.Type nodeClassType() {
        return nodeClassType;
    }

    /**
     * Fields of this generation's pool spec that the project sets itself, each with the reason (and the setting
     * to use), as paths from the spec. NodePools (v1beta1, v1) reference their node class in the template.
     */
    Map<List<String>, String> ownedPoolFields() {
        return Map.of(List.of("template", "spec", "nodeClassRef"), NODE_CLASS_REF_REASON);
    }

    /** The same for the node class spec: an EC2NodeClass (v1beta1, v1) names the node role. */
    Map<List<String>, String> ownedNodeClassFields() {
        return OWNED_ROLE_FIELDS;
    }

    /** The pool's spec as the typed settings describe it (as SpecRules lets them), in this generation's shape. */
    abstract Object poolSpec(TypedPool pool);

    /** The node class's spec as the typed settings describe it, in this generation's shape. */
    abstract Object nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName);

    /** Where this generation's pool spec holds the node requirements (NodePool: in the template). */
    List<String> requirementsPath() {
        return List.of("template", "spec", "requirements");
    }

    /**
     * The node class's object, built once: what its typed settings say as SpecRules lets them, its spec merged over
     * that, then the rules that read the result.
     */
    RenderedNodeClass nodeClass(NodeClassSettings nodeClass, String nodeRoleName) {
        NodeClassSettings typed = SpecRules.typedNodeClass(nodeClass);
        Map<String, Object> typedSpec = ManifestYaml.tree(nodeClassSpec(typed, nodeRoleName));
        RenderedNodeClass rendered = new RenderedNodeClass(
                nodeClass,
                nodeClassType.named(
                        metadata(nodeClass.name(), nodeClass.metadata()), SpecMerge.over(typedSpec, nodeClass.spec())));
        SpecRules.requireKept(
                nodeClass::written,
                nodeClass.specSetting(),
                typedSpec,
                rendered.object().spec(),
                typedNodeClassPaths());
        SpecRules.requireAmiSelected(rendered);
        return rendered;
    }

    /** The pool's object, built the same way on the node class it launches with. */
    RenderedPool pool(PoolSettings pool, RenderedNodeClass nodeClass) {
        TypedPool typed = SpecRules.typedPool(pool, nodeClass);
        Map<String, Object> typedSpec = ManifestYaml.tree(poolSpec(typed));
        Map<String, Object> written = SpecMerge.over(typedSpec, pool.spec());
        List<ApiGeneration.AdmissionDefault> defaulted = admissionDefaults(written);
        RenderedPool rendered = new RenderedPool(
                pool,
                poolType.named(metadata(pool.name(), pool.metadata()), withDefaults(written, defaulted)),
                nodeClass,
                requirementsPath(),
                defaulted);
        SpecRules.requireTypedKept(rendered, typedSpec, typedPaths());
        SpecRules.requireAgreement(rendered);
        return rendered;
    }

    /**
     * The requirements the release's admission webhook adds to a pool written as {@code spec} (v1alpha5: linux,
     * amd64, on-demand, and c, m, r of generation 3 on where no requirement names an instance type, family, category
     * or generation). Karpenter reads the stored object, so the rendered one carries them too, and the preview, the
     * checks and the derived facts read what Karpenter will.
     */
    private List<ApiGeneration.AdmissionDefault> admissionDefaults(Map<String, Object> spec) {
        Set<Object> keys = new HashSet<>();
        if (SpecRules.at(spec, requirementsPath()) instanceof List<?> requirements) {
            requirements.forEach(requirement -> {
                if (requirement instanceof Map<?, ?> map) {
                    keys.add(map.get("key"));
                }
            });
        }
        return generation.admissionDefaults().stream()
                .filter(added -> added.unlessAnyOf().stream().noneMatch(keys::contains))
                .toList();
    }

    /** {@code spec} with {@code defaults} appended to its requirements, as the webhook stores it. */
    private Map<String, Object> withDefaults(Map<String, Object> spec, List<ApiGeneration.AdmissionDefault> defaults) {
        if (defaults.isEmpty()) {
            return spec;
        }
        List<Object> requirements = SpecRules.at(spec, requirementsPath()) instanceof List<?> written
                ? new ArrayList<>(written)
                : new ArrayList<>();
        defaults.forEach(added ->
                requirements.add(ManifestYaml.tree(new Requirement(added.key(), added.operator(), added.values()))));
        Map<String, Object> overlay =
                Map.of(requirementsPath().get(requirementsPath().size() - 1), requirements);
        for (int i = requirementsPath().size() - 2; i >= 0; i--) {
            overlay = Map.of(requirementsPath().get(i), overlay);
        }
        return SpecMerge.over(spec, overlay);
    }

    /** The same for the node class: its tags, and the discovery tag its subnets are selected by. */
    final Map<Setting<?>, List<String>> typedNodeClassPaths() {
        Map<Setting<?>, List<String>> paths = new LinkedHashMap<>();
        paths.put(SettingsCatalogue.TAGS, List.of("tags"));
        paths.put(SettingsCatalogue.DISCOVERY_TAG_KEY, List.of(subnetSelectorField()));
        paths.put(SettingsCatalogue.DISCOVERY_TAG_VALUE, List.of(subnetSelectorField()));
        return paths;
    }

    /** The node class field that selects its subnets (EC2NodeClass: selector terms). */
    String subnetSelectorField() {
        return "subnetSelectorTerms";
    }

    /**
     * Where this generation's pool spec holds what a typed setting writes (besides the requirements), for
     * SpecRules: a spec may not overwrite what a setting written for the same pool says.
     */
    Map<Setting<?>, List<String>> typedPaths() {
        Map<Setting<?>, List<String>> paths = new LinkedHashMap<>();
        paths.put(SettingsCatalogue.NODE_LABELS, List.of("template", "metadata", "labels"));
        paths.put(SettingsCatalogue.NODE_TAINTS, List.of("template", "spec", "taints"));
        paths.put(SettingsCatalogue.CPU_LIMIT, List.of("limits", "cpu"));
        paths.put(SettingsCatalogue.MEMORY_LIMIT, List.of("limits", "memory"));
        paths.put(SettingsCatalogue.CONSOLIDATION, List.of("disruption", "consolidationPolicy"));
        paths.put(SettingsCatalogue.CONSOLIDATE_AFTER, List.of("disruption", "consolidateAfter"));
        paths.put(SettingsCatalogue.EXPIRE_AFTER, List.of("template", "spec", "expireAfter"));
        return paths;
    }

    /** Every pool and node class of {@code settings} in this generation, each built once. */
    RenderedPools.Generation build(PoolsAndNodeClasses settings, String nodeRoleName) {
        Map<String, RenderedNodeClass> nodeClasses = new LinkedHashMap<>();
        for (NodeClassSettings nodeClass : settings.nodeClasses()) {
            nodeClasses.put(nodeClass.name(), nodeClass(nodeClass, nodeRoleName));
        }
        List<RenderedPool> pools = new ArrayList<>();
        for (PoolSettings pool : settings.pools()) {
            pools.add(pool(pool, nodeClasses.get(pool.nodeClass())));
        }
        return new RenderedPools.Generation(this, List.copyOf(pools), List.copyOf(nodeClasses.values()));
    }

    private static KubernetesObject.ObjectMeta metadata(String name, ObjectMetadata metadata) {
        return new KubernetesObject.ObjectMeta(name, null, metadata.labels(), metadata.annotations());
    }

    /** An add-on kind's entry (a node_overlays one) as its object: named by the entry, the spec as written. */
    static KubernetesObject<Map<String, Object>> addOn(AddOnObject addOn) {
        @SuppressWarnings("unchecked")
        Map<String, Object> labels = (Map<String, Object>) addOn.metadata().getOrDefault("labels", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> annotations = (Map<String, Object>) addOn.metadata().getOrDefault("annotations", Map.of());
        return KubernetesObject.Type.from(addOn.kind().type())
                .named(
                        new KubernetesObject.ObjectMeta(addOn.name(), null, labels, annotations),
                        SpecMerge.over(Map.of(), addOn.spec()));
    }

    @Override
    public List<GenerationManifests> generations() {
        return List.of(this);
    }
}
