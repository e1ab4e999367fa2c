package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.LabelRequirement;
import dev.platform.karpenter.catalog.NodeClassOffer;
import dev.platform.karpenter.catalog.NodeOverlay;
import dev.platform.karpenter.catalog.Quantity;
import dev.platform.karpenter.catalog.Spending;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.KubernetesObject;
import dev.platform.karpenter.nodepools.manifest.RenderedAddOn;
import dev.platform.karpenter.nodepools.manifest.RenderedPool;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.ApiGeneration;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the evaluation reads of one pool as it will be applied: the pool object of the newest API generation the
 * release declares (typed settings and spec merged) and the node class it references. NodePool (karpenter.sh v1,
 * v1beta1) and Provisioner (v1alpha5) keep the same facts under different field names.
 *
 * @param setting       where its upstream fields are set, for messages: "node_pool_spec", "node_pools[0].spec"
 * @param requirements  the requirements, then the pool's node labels as In requirements
 * @param limits        resource to quantity in base units
 * @param weight        spec.weight (0 unset)
 * @param consolidatesUnderutilized whether consolidation replaces underutilized nodes (not only empty ones)
 * @param capacityTypes the capacity types its object allows (RenderedPool#capacityTypes: all three without a
 *                      requirement, which only a Provisioner's webhook defaulted, to on-demand)
 * @param labels        the labels of its template (spec.template.metadata.labels; a Provisioner's spec.labels), which
 *                      NodeOverlays are matched against
 * @param nodeClass     what its node class offers
 * @param kubelet       the kubelet settings in force (for the maxPods check)
 * @param rendered      the object itself and its node class (budgets, AMI selection, drift)
 */
public record PoolFacts(
        String name,
        String setting,
        List<LabelRequirement> requirements,
        Map<String, BigDecimal> limits,
        int weight,
        boolean consolidatesUnderutilized,
        Set<String> capacityTypes,
        Map<String, String> labels,
        NodeClassOffer nodeClass,
        String nodeClassName,
        RenderedPool rendered) {

    /** The cluster's pools, in the settings' order: the objects the model rendered, which the stacks apply. */
    public static List<PoolFacts> of(ClusterConfig config) {
        List<PoolFacts> pools = new ArrayList<>();
        for (RenderedPool pool : RenderedPools.of(config).pools()) {
            Map<String, Object> nodeClass = pool.nodeClass() == null
                    ? Map.of()
                    : pool.nodeClass().object().spec();
            pools.add(of(pool, nodeClass, config.controller().chartValues()));
        }
        return List.copyOf(pools);
    }

    private static PoolFacts of(
            RenderedPool rendered, Map<String, Object> nodeClass, Map<String, Object> controllerValues) {
        KubernetesObject<Map<String, Object>> pool = rendered.object();
        List<ApiGeneration.AdmissionDefault> defaulted = rendered.defaulted();
        Map<String, Object> spec = pool.spec();
        boolean provisioner =
                pool.kind().equals(ApiGeneration.V1ALPHA5.kinds().pool().kind());
        Map<String, Object> template =
                provisioner ? spec : map(map(spec.get("template")).get("spec"));
        String requirementsAt = provisioner ? "requirements" : "template.spec.requirements";
        List<LabelRequirement> requirements = requirements(list(template.get("requirements")), requirementsAt);
        int firstDefault = requirements.size() - defaulted.size();
        for (int i = firstDefault; i < requirements.size(); i++) {
            LabelRequirement added = requirements.get(i);
            requirements.set(
                    i,
                    new LabelRequirement(
                            added.key(),
                            added.operator(),
                            added.values(),
                            added.minValues(),
                            added.where() + ", which Karpenter adds to a " + pool.kind() + " without a requirement on "
                                    + String.join(
                                            " or ",
                                            new TreeSet<>(defaulted
                                                    .get(i - firstDefault)
                                                    .unlessAnyOf()))));
        }
        Map<String, Object> labels = provisioner
                ? map(spec.get("labels"))
                : map(map(map(spec.get("template")).get("metadata")).get("labels"));
        String labelsAt = provisioner ? "labels" : "template.metadata.labels";
        labels.forEach((key, value) -> requirements.add(new LabelRequirement(
                key, "In", List.of(String.valueOf(value)), Optional.empty(), labelsAt + "." + key)));

        Map<String, Object> limitsWritten =
                provisioner ? map(map(spec.get("limits")).get("resources")) : map(spec.get("limits"));
        Map<String, BigDecimal> limits = new LinkedHashMap<>();
        limitsWritten.forEach((resource, value) -> limits.put(resource, Quantity.parse(String.valueOf(value))));
        if (!provisioner && spec.get("replicas") != null) {
            // A static pool keeps exactly replicas nodes (within limits.nodes): they bound what it launches.
            limits.merge(Spending.NODES, Quantity.parse(String.valueOf(spec.get("replicas"))), BigDecimal::min);
        }

        Object weight = spec.get("weight");
        boolean underutilized = provisioner
                ? Boolean.TRUE.equals(map(spec.get("consolidation")).get("enabled"))
                : String.valueOf(map(spec.get("disruption")).get("consolidationPolicy"))
                                .startsWith("WhenEmptyOr")
                        || "WhenUnderutilized"
                                .equals(map(spec.get("disruption")).get("consolidationPolicy"));

        Map<String, Object> nodeClassRef = map(template.get(provisioner ? "providerRef" : "nodeClassRef"));
        String nodeClassName = String.valueOf(nodeClassRef.getOrDefault("name", "default"));
        Map<String, Object> kubelet = provisioner
                ? map(spec.get("kubeletConfiguration"))
                : nodeClass.containsKey("kubelet") ? map(nodeClass.get("kubelet")) : map(template.get("kubelet"));
        return new PoolFacts(
                pool.metadata().name(),
                rendered.settings().specSetting(),
                List.copyOf(requirements),
                Collections.unmodifiableMap(limits),
                weight == null ? 0 : Integer.parseInt(String.valueOf(weight)),
                underutilized,
                rendered.capacityTypes(),
                texts(labels),
                NodeClassFacts.offer(rendered.nodeClass(), kubelet, controllerValues),
                nodeClassName,
                rendered);
    }

    /** The cluster's NodeOverlays, as the evaluation applies them. */
    static List<NodeOverlay> overlays(ClusterConfig config) {
        List<NodeOverlay> overlays = new ArrayList<>();
        for (RenderedAddOn addOn : RenderedPools.of(config).addOns()) {
            if (addOn.settings().kind() != AddOnKind.NODE_OVERLAY) {
                continue;
            }
            KubernetesObject<Map<String, Object>> object = addOn.object();
            Map<String, Object> spec = object.spec();
            Map<String, String> capacity = new LinkedHashMap<>();
            map(spec.get("capacity")).forEach((resource, quantity) -> capacity.put(resource, String.valueOf(quantity)));
            Object weight = spec.get("weight");
            overlays.add(new NodeOverlay(
                    object.metadata().name(),
                    weight == null ? 0 : Integer.parseInt(String.valueOf(weight)),
                    requirements(list(spec.get("requirements")), "spec.requirements"),
                    Optional.ofNullable(spec.get("price")).map(String::valueOf),
                    Optional.ofNullable(spec.get("priceAdjustment")).map(String::valueOf),
                    spec.containsKey("capacity") ? Optional.of(Map.copyOf(capacity)) : Optional.empty()));
        }
        return List.copyOf(overlays);
    }

    private static List<LabelRequirement> requirements(List<Object> written, String at) {
        List<LabelRequirement> requirements = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            Map<String, Object> requirement = map(written.get(i));
            Object minValues = requirement.get("minValues");
            requirements.add(new LabelRequirement(
                    String.valueOf(requirement.get("key")),
                    String.valueOf(requirement.get("operator")),
                    list(requirement.get("values")).stream()
                            .map(String::valueOf)
                            .toList(),
                    minValues == null ? Optional.empty() : Optional.of(Integer.parseInt(String.valueOf(minValues))),
                    at + "[" + i + "]"));
        }
        return requirements;
    }

    /** The labels as texts. */
    private static Map<String, String> texts(Map<String, Object> labels) {
        Map<String, String> texts = new LinkedHashMap<>();
        labels.forEach((key, value) -> texts.put(key, String.valueOf(value)));
        return Collections.unmodifiableMap(texts);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value instanceof List<?> list ? (List<Object>) list : List.of();
    }

    /** Whether spot is among its capacity types. */
    public boolean allowsSpot() {
        return capacityTypes.contains("spot");
    }
}
