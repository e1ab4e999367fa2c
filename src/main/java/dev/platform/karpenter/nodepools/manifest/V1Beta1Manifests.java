package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.NodePoolSettings;
import dev.platform.karpenter.config.PoolSettings;
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
final class V1Beta1Manifests implements NodePoolManifests {
    static final String NODE_POOL_API = "karpenter.sh/v1beta1";
    static final String NODE_CLASS_API = "karpenter.k8s.aws/v1beta1";
    static final String NODE_CLASS_KIND = "EC2NodeClass";
    static final KubernetesObject.Type NODE_POOL = new KubernetesObject.Type(NODE_POOL_API, "NodePool");
    static final KubernetesObject.Type EC2_NODE_CLASS = new KubernetesObject.Type(NODE_CLASS_API, NODE_CLASS_KIND);

    public record NodePoolSpec(Template template, Map<String, Object> limits, Disruption disruption) {}

    /** metadata is null without labels: an empty object would be noise in every plan. */
    public record Template(V1Manifests.TemplateMetadata metadata, NodeClaimSpec spec) {}

    public record NodeClaimSpec(List<Requirement> requirements, NodeClassRef nodeClassRef, List<Taint> taints) {}

    public record NodeClassRef(String apiVersion, String kind, String name) {}

    /** consolidateAfter only with WhenEmpty, where the CRD requires it. */
    public record Disruption(String consolidationPolicy, String consolidateAfter, String expireAfter) {}

    public record Ec2NodeClassSpec(
            String amiFamily,
            String role,
            List<V1Manifests.SelectorTerm> subnetSelectorTerms,
            List<V1Manifests.SelectorTerm> securityGroupSelectorTerms,
            List<BlockDeviceMapping> blockDeviceMappings,
            Map<String, String> tags) {}

    @Override
    public List<KubernetesObject<?>> render(NodePoolSettings settings, String nodeRoleName) {
        List<BlockDeviceMapping> devices = BlockDeviceMapping.forFamily(settings.amiFamily());
        List<V1Manifests.SelectorTerm> selector = V1Manifests.discoverySelector(settings);
        Ec2NodeClassSpec nodeClass = new Ec2NodeClassSpec(
                settings.amiFamily().setting(), nodeRoleName, selector, selector, devices, settings.nodeTags());
        return NodePoolManifests.poolsThenNodeClass(
                settings, NODE_POOL, V1Beta1Manifests::nodePool, EC2_NODE_CLASS, nodeClass);
    }

    private static NodePoolSpec nodePool(PoolSettings pool) {
        Map<String, Object> limits = PoolRequirements.limits(pool);
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
                        pool.labels().isEmpty() ? null : new V1Manifests.TemplateMetadata(pool.labels()),
                        new NodeClaimSpec(
                                PoolRequirements.of(pool),
                                new NodeClassRef(NODE_CLASS_API, NODE_CLASS_KIND, NODE_CLASS),
                                PoolRequirements.taints(pool))),
                limits,
                disruption);
    }
}
