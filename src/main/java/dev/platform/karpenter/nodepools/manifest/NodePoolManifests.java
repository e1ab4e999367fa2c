package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodePoolSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.versions.ApiGeneration;
import dev.platform.karpenter.versions.DeclaredApis;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The pools and the node class of one Karpenter API generation: which kinds, apiVersions and field names it uses.
 * Chosen once from the release, so no other code asks which generation it renders for.
 */
public interface NodePoolManifests {

    /** The objects of every declared generation: at 0.32 before retiring, the Provisioners beside the NodePools. */
    static NodePoolManifests forApis(DeclaredApis apis) {
        List<ApiGeneration> rendered = apis.rendered();
        return rendered.size() == 1
                ? of(rendered.get(0))
                : new TransitionManifests(of(rendered.get(0)), of(rendered.get(1)));
    }

    private static NodePoolManifests of(ApiGeneration generation) {
        return switch (generation) {
            case V1ALPHA5 -> new V1Alpha5Manifests();
            case V1BETA1 -> new V1Beta1Manifests();
            case V1 -> new V1Manifests();
        };
    }

    /**
     * The pools, in the settings' order, then the node class "default" they all use.
     *
     * @param nodeRoleName the IAM role of the nodes (a Terraform reference is fine: it is only copied into a string)
     */
    List<KubernetesObject<?>> render(NodePoolSettings settings, String nodeRoleName);

    /**
     * Objects Helm creates and runs on uninstall, before it deletes the pools, so that uninstall returns only once
     * Karpenter has terminated the pools' nodes; empty where deleting the node class already waits for that.
     * Never part of the plain file: applied by kubectl, the hook would run at once.
     *
     * <p>From v1beta1 on none is needed: the EC2NodeClass carries Karpenter's termination finalizer, which it removes
     * only once no NodeClaim uses the class any more, i.e. once the nodes of the deleted NodePools are terminated;
     * Helm's uninstall waits for the class to be gone.
     *
     * @param namespace      where the hook's Job runs (the controller's namespace)
     * @param timeoutSeconds how long Helm waits for the hook
     */
    default List<Object> uninstallHook(NodePoolSettings settings, String namespace, int timeoutSeconds) {
        return List.of();
    }

    /** Name of the plain file for {@code kubectl apply -f}: the seed's name on 0.x. */
    default String plainFileName() {
        return "nodepool.yaml";
    }

    /**
     * A pool object per pool of the settings, in their order, named after the pool, then the node class
     * {@value #NODE_CLASS}: the objects {@link #render} returns in every generation.
     */
    static List<KubernetesObject<?>> poolsThenNodeClass(
            NodePoolSettings settings,
            KubernetesObject.Type poolType,
            Function<PoolSettings, ?> poolSpec,
            KubernetesObject.Type nodeClassType,
            Object nodeClassSpec) {
        List<KubernetesObject<?>> objects = new ArrayList<>();
        settings.pools().forEach(pool -> objects.add(poolType.named(pool.name(), poolSpec.apply(pool))));
        objects.add(nodeClassType.named(NODE_CLASS, nodeClassSpec));
        return List.copyOf(objects);
    }

    /** Name of the node class every pool references. */
    String NODE_CLASS = "default";
}
