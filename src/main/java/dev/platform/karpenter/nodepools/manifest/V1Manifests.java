package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AmiFamily;
import dev.platform.karpenter.config.NodePoolSettings;
import dev.platform.karpenter.config.PoolSettings;
import java.util.List;
import java.util.Map;

/**
 * Karpenter 1.x: karpenter.sh/v1 NodePool and karpenter.k8s.aws/v1 EC2NodeClass, as upstream's getting-started
 * default. The node class names the node role; Karpenter makes and deletes the instance profile itself.
 */
final class V1Manifests implements NodePoolManifests {
    static final String NODE_POOL_API = "karpenter.sh/v1";
    static final String NODE_CLASS_GROUP = "karpenter.k8s.aws";
    static final String NODE_CLASS_API = NODE_CLASS_GROUP + "/v1";
    static final String NODE_CLASS_KIND = "EC2NodeClass";
    static final KubernetesObject.Type NODE_POOL = new KubernetesObject.Type(NODE_POOL_API, "NodePool");
    static final KubernetesObject.Type EC2_NODE_CLASS = new KubernetesObject.Type(NODE_CLASS_API, NODE_CLASS_KIND);
    /** How long a node must be empty or underutilized before consolidation, as upstream's default pool. */
    static final String DEFAULT_CONSOLIDATE_AFTER = "1m";

    public record NodePoolSpec(Template template, Map<String, Object> limits, Disruption disruption) {}

    /** metadata is null without labels: an empty object would be noise in every plan. */
    public record Template(TemplateMetadata metadata, NodeClaimSpec spec) {}

    public record TemplateMetadata(Map<String, String> labels) {}

    public record NodeClaimSpec(
            List<Requirement> requirements, NodeClassRef nodeClassRef, List<Taint> taints, String expireAfter) {}

    public record NodeClassRef(String group, String kind, String name) {}

    public record Disruption(String consolidationPolicy, String consolidateAfter) {}

    public record Ec2NodeClassSpec(
            String role,
            List<AmiSelectorTerm> amiSelectorTerms,
            List<SelectorTerm> subnetSelectorTerms,
            List<SelectorTerm> securityGroupSelectorTerms,
            List<BlockDeviceMapping> blockDeviceMappings,
            Map<String, String> tags) {}

    public record AmiSelectorTerm(String alias) {}

    public record SelectorTerm(Map<String, String> tags) {}

    @Override
    public List<KubernetesObject<?>> render(NodePoolSettings settings, String nodeRoleName) {
        List<BlockDeviceMapping> devices = BlockDeviceMapping.forFamily(settings.amiFamily());
        List<SelectorTerm> selector = discoverySelector(settings);
        Ec2NodeClassSpec nodeClass = new Ec2NodeClassSpec(
                nodeRoleName,
                List.of(new AmiSelectorTerm(aliasFamily(settings.amiFamily()) + "@" + settings.amiVersion())),
                selector,
                selector,
                devices,
                settings.nodeTags());
        return NodePoolManifests.poolsThenNodeClass(
                settings, NODE_POOL, V1Manifests::nodePool, EC2_NODE_CLASS, nodeClass);
    }

    /** Subnets and security groups carrying the discovery tag; the v1beta1 node class selects the same way. */
    static List<SelectorTerm> discoverySelector(NodePoolSettings settings) {
        return List.of(new SelectorTerm(Map.of(settings.discoveryTagKey(), settings.discoveryTagValue())));
    }

    private static NodePoolSpec nodePool(PoolSettings pool) {
        Map<String, Object> limits = PoolRequirements.limits(pool);
        return new NodePoolSpec(
                new Template(
                        pool.labels().isEmpty() ? null : new TemplateMetadata(pool.labels()),
                        new NodeClaimSpec(
                                PoolRequirements.of(pool),
                                new NodeClassRef(NODE_CLASS_GROUP, NODE_CLASS_KIND, NODE_CLASS),
                                PoolRequirements.taints(pool),
                                pool.expireAfter())),
                limits,
                new Disruption(
                        pool.consolidation() ? "WhenEmptyOrUnderutilized" : "WhenEmpty",
                        pool.consolidateAfter().orElse(DEFAULT_CONSOLIDATE_AFTER)));
    }

    /** The family part of an amiSelectorTerms alias ("bottlerocket@latest", "al2023@v20240625"). */
    private static String aliasFamily(AmiFamily family) {
        return switch (family) {
            case BOTTLEROCKET -> "bottlerocket";
            case AL2023 -> "al2023";
            case AL2 -> "al2";
        };
    }
}
