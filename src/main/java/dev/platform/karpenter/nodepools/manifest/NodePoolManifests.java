package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import java.util.List;

/**
 * The pools and node classes of the API generations a deploy declares: which kinds, apiVersions and field names
 * they use. Chosen once from the release, so no other code asks which generation it renders for.
 */
public interface NodePoolManifests {

    /** The objects of every declared generation: at 0.32 before retiring, the Provisioners beside the NodePools. */
    static NodePoolManifests forApis(DeclaredApis apis) {
        List<ApiGeneration> rendered = apis.rendered();
        return rendered.size() == 1
                ? of(rendered.get(0))
                : new TransitionManifests(of(rendered.get(0)), of(rendered.get(1)));
    }

    /** The conversion of the generation-neutral pools and node classes to {@code generation}'s objects. */
    static GenerationManifests of(ApiGeneration generation) {
        return switch (generation) {
            case V1ALPHA5 -> new V1Alpha5Manifests();
            case V1BETA1 -> new V1Beta1Manifests();
            case V1 -> new V1Manifests();
        };
    }

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
    default List<Object> uninstallHook(PoolsAndNodeClasses settings, String namespace, int timeoutSeconds) {
        return List.of();
    }

    /** The generations whose objects RenderedPools builds, oldest first. */
    List<GenerationManifests> generations();

    /** Name of the plain file for {@code kubectl apply -f}: the seed's name on 0.x. */
    default String plainFileName() {
        return "nodepool.yaml";
    }
}
