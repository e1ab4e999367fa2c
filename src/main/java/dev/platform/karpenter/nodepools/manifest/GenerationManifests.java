package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
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
    private final KubernetesObject.Type poolType;
    private final KubernetesObject.Type nodeClassType;

    GenerationManifests(KubernetesObject.Type poolType, KubernetesObject.Type nodeClassType) {
        this.poolType = poolType;
        this.nodeClassType = nodeClassType;
    }

    /** The kind and apiVersion of this generation's pools. */
    public KubernetesObject.Type poolType() {
        return poolType;
    }

    /** The kind and apiVersion of this generation's node classes. */
    public KubernetesObject.Type nodeClassType() {
        return nodeClassType;
    }

    /** The pool's spec as the typed settings describe it, in this generation's shape. */
    abstract Object poolSpec(PoolSettings pool);

    /** The node class's spec as the typed settings describe it, in this generation's shape. */
    abstract Object nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName);

    @Override
    public final List<KubernetesObject<Map<String, Object>>> render(PoolsAndNodeClasses settings, String nodeRoleName) {
        List<KubernetesObject<Map<String, Object>>> objects = new ArrayList<>();
        for (PoolSettings pool : settings.pools()) {
            objects.add(poolType.named(pool.name(), ManifestYaml.tree(poolSpec(pool))));
        }
        for (NodeClassSettings nodeClass : settings.nodeClasses()) {
            objects.add(
                    nodeClassType.named(nodeClass.name(), ManifestYaml.tree(nodeClassSpec(nodeClass, nodeRoleName))));
        }
        return List.copyOf(objects);
    }
}
