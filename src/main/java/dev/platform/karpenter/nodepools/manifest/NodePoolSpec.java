package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.PoolSettings;
import java.util.List;
import java.util.Map;

/**
 * The NodePool spec of v1beta1 and v1, which share its shape; a field one generation lacks is null there and left
 * out of the YAML (V1Beta1Manifests and V1Manifests fill what theirs has).
 */
public record NodePoolSpec(Template template, Map<String, Object> limits, Disruption disruption) {

    /** metadata is null without labels: an empty object would be noise in every plan. */
    public record Template(TemplateMetadata metadata, NodeClaimSpec spec) {}

    public record TemplateMetadata(Map<String, String> labels) {}

    /** expireAfter: v1 (v1beta1 has it in the disruption block). */
    public record NodeClaimSpec(
            List<Requirement> requirements, NodeClassRef nodeClassRef, List<Taint> taints, String expireAfter) {}

    /** v1beta1 names the node class's apiVersion, v1 its group. */
    public record NodeClassRef(String apiVersion, String group, String kind, String name) {}

    /** expireAfter: v1beta1 only. */
    public record Disruption(String consolidationPolicy, String consolidateAfter, String expireAfter) {}

    /**
     * A pool's NodePool spec as v1beta1 and v1 share it: its labels, requirements and taints on the node template,
     * its limits, and what differs by generation (the node class reference, where expireAfter stands, disruption).
     */
    static NodePoolSpec of(TypedPool typed, NodeClassRef nodeClassRef, String nodeExpireAfter, Disruption disruption) {
        PoolSettings pool = typed.settings();
        return new NodePoolSpec(
                new Template(
                        pool.labels().isEmpty() ? null : new TemplateMetadata(pool.labels()),
                        new NodeClaimSpec(
                                PoolRequirements.of(typed),
                                nodeClassRef,
                                PoolRequirements.taints(pool),
                                nodeExpireAfter)),
                PoolRequirements.limits(typed),
                disruption);
    }
}
