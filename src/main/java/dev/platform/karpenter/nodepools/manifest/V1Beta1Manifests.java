package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.Setting;
import dev.platform.karpenter.config.SettingsCatalogue;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.Disruption;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.NodeClassRef;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Karpenter 0.32-0.37 (and 1.0 until retired): karpenter.sh/v1beta1 NodePool and karpenter.k8s.aws/v1beta1
 * EC2NodeClass, converted from the same pool settings as the v1alpha5 objects by upstream's v1beta1 migration rules:
 * requirements stay as they are (every default the v1alpha5 webhook injected is already written out by
 * {@link PoolRequirements}), consolidation.enabled becomes WhenUnderutilized, ttlSecondsAfterEmpty becomes
 * WhenEmpty after that many seconds, ttlSecondsUntilExpired becomes expireAfter, the default instance profile
 * becomes spec.role, and the selectors become selector terms.
 */
final class V1Beta1Manifests extends GenerationManifests {
    static final KubernetesObject.Type NODE_POOL =
            KubernetesObject.Type.from(ApiGeneration.V1BETA1.kinds().pool());
    static final KubernetesObject.Type EC2_NODE_CLASS =
            KubernetesObject.Type.from(ApiGeneration.V1BETA1.kinds().nodeClass());

    V1Beta1Manifests() {
        super(ApiGeneration.V1BETA1, NODE_POOL, EC2_NODE_CLASS);
    }

    @Override
    Ec2NodeClassSpec nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName) {
        return Ec2NodeClassSpec.of(
                nodeClass, nodeRoleName, nodeClass.amiFamily().setting(), null);
    }

    /** v1beta1 keeps expireAfter in the disruption block. */
    @Override
    Map<Setting<?>, List<String>> typedPaths() {
        Map<Setting<?>, List<String>> paths = new LinkedHashMap<>(super.typedPaths());
        paths.put(SettingsCatalogue.EXPIRE_AFTER, List.of("disruption", "expireAfter"));
        return paths;
    }

    /** consolidateAfter only with WhenEmpty, where the CRD requires it. */
    @Override
    NodePoolSpec poolSpec(TypedPool typed) {
        PoolSettings pool = typed.settings();
        Disruption disruption = pool.consolidation()
                ? new Disruption("WhenUnderutilized", null, pool.expireAfter())
                // v1alpha5 without consolidation removed empty nodes only after ttlSecondsAfterEmpty, or never.
                : new Disruption(
                        "WhenEmpty",
                        pool.consolidateAfter()
                                .or(() -> pool.ttlSecondsAfterEmpty().map(seconds -> seconds + "s"))
                                .orElse("Never"),
                        pool.expireAfter());
        return NodePoolSpec.of(
                typed,
                new NodeClassRef(EC2_NODE_CLASS.apiVersion(), null, EC2_NODE_CLASS.kind(), pool.nodeClass()),
                null,
                disruption);
    }
}
