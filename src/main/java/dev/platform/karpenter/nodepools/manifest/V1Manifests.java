package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.Disruption;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.NodeClassRef;
import dev.platform.karpenter.release.ApiGeneration;
import java.util.List;

/**
 * Karpenter 1.x: karpenter.sh/v1 NodePool and karpenter.k8s.aws/v1 EC2NodeClass, as upstream's getting-started
 * default. The node class names the node role; Karpenter makes and deletes the instance profile itself.
 */
final class V1Manifests extends GenerationManifests {
    static final KubernetesObject.Type NODE_POOL =
            KubernetesObject.Type.from(ApiGeneration.V1.kinds().pool());
    static final KubernetesObject.Type EC2_NODE_CLASS =
            KubernetesObject.Type.from(ApiGeneration.V1.kinds().nodeClass());
    /** How long a node must be empty or underutilized before consolidation, as upstream's default pool. */
    static final String DEFAULT_CONSOLIDATE_AFTER = "1m";

    V1Manifests() {
        super(ApiGeneration.V1, NODE_POOL, EC2_NODE_CLASS);
    }

    /**
     * The alias implies the AMI family; Custom, which has none, is named by amiFamily and takes its
     * amiSelectorTerms from the spec (SpecRules).
     */
    @Override
    Ec2NodeClassSpec nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName) {
        AmiFamily family = nodeClass.amiFamily();
        return family.hasAlias()
                ? Ec2NodeClassSpec.of(
                        nodeClass,
                        nodeRoleName,
                        null,
                        List.of(new Ec2NodeClassSpec.AmiSelectorTerm(family.alias(nodeClass.amiVersion()))))
                : Ec2NodeClassSpec.of(nodeClass, nodeRoleName, family.setting(), null);
    }

    @Override
    NodePoolSpec poolSpec(TypedPool typed) {
        PoolSettings pool = typed.settings();
        return NodePoolSpec.of(
                typed,
                new NodeClassRef(null, EC2_NODE_CLASS.group(), EC2_NODE_CLASS.kind(), pool.nodeClass()),
                pool.expireAfter(),
                new Disruption(
                        pool.consolidation() ? "WhenEmptyOrUnderutilized" : "WhenEmpty",
                        pool.consolidateAfter().orElse(DEFAULT_CONSOLIDATE_AFTER),
                        null));
    }
}
