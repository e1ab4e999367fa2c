package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolsAndNodeClasses;
import java.util.ArrayList;
import java.util.List;

/**
 * Two generations declared side by side (0.32 before retired_api = "v1alpha5"): the previous generation's objects,
 * which keep their nodes running, then the converted ones. Both carry the same names in different kinds. The
 * uninstall hook of the previous generation stays, so a destroy still waits for the nodes of its Provisioners.
 */
record TransitionManifests(NodePoolManifests previous, NodePoolManifests next) implements NodePoolManifests {

    @Override
    public List<Object> uninstallHook(PoolsAndNodeClasses settings, String namespace, int timeoutSeconds) {
        return previous.uninstallHook(settings, namespace, timeoutSeconds);
    }

    @Override
    public List<GenerationManifests> generations() {
        List<GenerationManifests> both = new ArrayList<>(previous.generations());
        both.addAll(next.generations());
        return List.copyOf(both);
    }

    @Override
    public String plainFileName() {
        return next.plainFileName();
    }
}
