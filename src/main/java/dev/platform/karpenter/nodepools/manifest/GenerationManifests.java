package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.NodeOverlaySettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.versions.ApiGeneration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** The pool's spec as the typed settings describe it, in this generation's shape. */
    abstract Object poolSpec(PoolSettings pool);

    /** The node class's spec as the typed settings describe it, in this generation's shape. */
    abstract Object nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName);

    /** The pool's object: what its typed settings produce, its spec merged over that. */
    KubernetesObject<Map<String, Object>> pool(PoolSettings pool) {
        return poolType.named(pool.name(), SpecMerge.over(ManifestYaml.tree(poolSpec(pool)), pool.spec()));
    }

    /** The node class's object: what its typed settings produce, its spec merged over that. */
    KubernetesObject<Map<String, Object>> nodeClass(NodeClassSettings nodeClass, String nodeRoleName) {
        return nodeClassType.named(
                nodeClass.name(),
                SpecMerge.over(ManifestYaml.tree(nodeClassSpec(nodeClass, nodeRoleName)), nodeClass.spec()));
    }

    /** The kind of node_overlays entries (Karpenter 1.7 on, where only v1 pools are rendered). */
    public static final KubernetesObject.Type NODE_OVERLAY =
            new KubernetesObject.Type("karpenter.sh", "v1alpha1", "NodeOverlay");

    /** A node_overlays entry as its object: the spec as written. */
    static KubernetesObject<Map<String, Object>> nodeOverlay(NodeOverlaySettings overlay) {
        @SuppressWarnings("unchecked")
        Map<String, Object> labels = (Map<String, Object>) overlay.metadata().getOrDefault("labels", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> annotations =
                (Map<String, Object>) overlay.metadata().getOrDefault("annotations", Map.of());
        return new KubernetesObject<>(
                NODE_OVERLAY.apiVersion(),
                NODE_OVERLAY.kind(),
                new KubernetesObject.ObjectMeta(overlay.name(), null, labels, annotations),
                SpecMerge.over(Map.of(), overlay.spec()));
    }

    @Override
    public List<GenerationManifests> generations() {
        return List.of(this);
    }

    @Override
    public final List<KubernetesObject<Map<String, Object>>> render(PoolsAndNodeClasses settings, String nodeRoleName) {
        List<KubernetesObject<Map<String, Object>>> objects = new ArrayList<>();
        for (PoolSettings pool : settings.pools()) {
            objects.add(pool(pool));
        }
        for (NodeClassSettings nodeClass : settings.nodeClasses()) {
            objects.add(nodeClass(nodeClass, nodeRoleName));
        }
        for (NodeOverlaySettings overlay : settings.nodeOverlays()) {
            objects.add(nodeOverlay(overlay));
        }
        return List.copyOf(objects);
    }
}
