package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.Disruption;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.NodeClaimSpec;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.NodeClassRef;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.Template;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.TemplateMetadata;
import dev.platform.karpenter.versions.ApiGeneration;
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
    static final KubernetesObject.Type NODE_POOL = new KubernetesObject.Type("karpenter.sh", "v1beta1", "NodePool");
    static final KubernetesObject.Type EC2_NODE_CLASS =
            new KubernetesObject.Type("karpenter.k8s.aws", "v1beta1", "EC2NodeClass");

    V1Beta1Manifests() {
        super(ApiGeneration.V1BETA1, NODE_POOL, EC2_NODE_CLASS);
    }

    @Override
    Map<List<String>, String> ownedPoolFields() {
        return Map.of(List.of("template", "spec", "nodeClassRef"), GenerationManifests.NODE_CLASS_REF_REASON);
    }

    @Override
    Map<List<String>, String> ownedNodeClassFields() {
        return GenerationManifests.OWNED_ROLE_FIELDS;
    }

    @Override
    Ec2NodeClassSpec nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName) {
        return new Ec2NodeClassSpec(
                nodeClass.amiFamily().setting(),
                nodeRoleName,
                null,
                Ec2NodeClassSpec.discovery(nodeClass.discovery()),
                Ec2NodeClassSpec.discovery(nodeClass.discovery()),
                nodeClass.blockDevices(),
                nodeClass.tags());
    }

    /** consolidateAfter only with WhenEmpty, where the CRD requires it. */
    @Override
    NodePoolSpec poolSpec(PoolSettings pool) {
        Disruption disruption = pool.consolidation()
                ? new Disruption("WhenUnderutilized", null, pool.expireAfter())
                // v1alpha5 without consolidation removed empty nodes only after ttlSecondsAfterEmpty, or never.
                : new Disruption(
                        "WhenEmpty",
                        pool.consolidateAfter()
                                .or(() -> pool.ttlSecondsAfterEmpty().map(seconds -> seconds + "s"))
                                .orElse("Never"),
                        pool.expireAfter());
        return new NodePoolSpec(
                new Template(
                        pool.labels().isEmpty() ? null : new TemplateMetadata(pool.labels()),
                        new NodeClaimSpec(
                                PoolRequirements.of(pool),
                                new NodeClassRef(
                                        EC2_NODE_CLASS.apiVersion(), null, EC2_NODE_CLASS.kind(), pool.nodeClass()),
                                PoolRequirements.taints(pool),
                                null)),
                PoolRequirements.limits(pool),
                disruption);
    }
}
