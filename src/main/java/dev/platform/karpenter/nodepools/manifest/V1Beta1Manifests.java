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
        List<V1Manifests.SelectorTerm> selector = V1Manifests.discoverySelector(settings);
        return NodePoolManifests.poolsThenNodeClass(
                settings,
                pool -> KubernetesObject.of(NODE_POOL_API, "NodePool", pool.name(), nodePool(pool)),
                KubernetesObject.of(
                        NODE_CLASS_API,
                        NODE_CLASS_KIND,
                        NODE_CLASS,
                        new Ec2NodeClassSpec(
                                settings.amiFamily().setting(),
                                nodeRoleName,
                                selector,
                                selector,
                                BlockDeviceMapping.forFamily(settings.amiFamily()),
                                settings.nodeTags())));
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
