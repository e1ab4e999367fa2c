package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.Disruption;
import dev.platform.karpenter.nodepools.manifest.NodePoolSpec.NodeClassRef;
import dev.platform.karpenter.versions.ApiGeneration;
import java.util.List;

/**
 * Karpenter 1.x: karpenter.sh/v1 NodePool and karpenter.k8s.aws/v1 EC2NodeClass, as upstream's getting-started
 * default. The node class names the node role; Karpenter makes and deletes the instance profile itself.
 */
final class V1Manifests extends GenerationManifests {
    static final String NODE_POOL_API = "karpenter.sh/v1";
    static final String NODE_CLASS_GROUP = "karpenter.k8s.aws";
    static final String NODE_CLASS_API = NODE_CLASS_GROUP + "/v1";
    static final String NODE_CLASS_KIND = "EC2NodeClass";
    static final KubernetesObject.Type NODE_POOL = new KubernetesObject.Type(NODE_POOL_API, "NodePool");
    static final KubernetesObject.Type EC2_NODE_CLASS = new KubernetesObject.Type(NODE_CLASS_API, NODE_CLASS_KIND);
    /** How long a node must be empty or underutilized before consolidation, as upstream's default pool. */
    static final String DEFAULT_CONSOLIDATE_AFTER = "1m";

    V1Manifests() {
        super(ApiGeneration.V1, NODE_POOL, EC2_NODE_CLASS);
    }

    /** The alias implies the AMI family. */
    @Override
    Ec2NodeClassSpec nodeClassSpec(NodeClassSettings nodeClass, String nodeRoleName) {
        return Ec2NodeClassSpec.of(
                nodeClass,
                nodeRoleName,
                null,
                List.of(new Ec2NodeClassSpec.AmiSelectorTerm(
                        nodeClass.amiFamily().alias(nodeClass.amiVersion()))));
    }

    @Override
    NodePoolSpec poolSpec(PoolSettings pool) {
        return NodePoolSpec.of(
                pool,
                new NodeClassRef(null, NODE_CLASS_GROUP, NODE_CLASS_KIND, pool.nodeClass()),
                pool.expireAfter(),
                new Disruption(
                        pool.consolidation() ? "WhenEmptyOrUnderutilized" : "WhenEmpty",
                        pool.consolidateAfter().orElse(DEFAULT_CONSOLIDATE_AFTER),
                        null));
    }
}
