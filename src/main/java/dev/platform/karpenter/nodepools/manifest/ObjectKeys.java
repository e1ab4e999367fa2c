package dev.platform.karpenter.nodepools.manifest;

import dev.platform.karpenter.config.AwsRules;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.Kubernetes;
import dev.platform.karpenter.release.NodePoolRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The keys of a rendered pool or node class, checked as their consumers check them, whatever wrote them (a typed
 * setting or a spec): label and annotation keys as Kubernetes qualified names, label values, the annotations' total
 * size, taint and requirement keys (the API server or Karpenter would refuse the object after deploy), and a node
 * class's tags as EC2 and Karpenter restrict them (EC2 would refuse every launch). The CRDs check none of these.
 *
 * <p>The places are those of each kind; a Provisioner keeps in its spec what a NodePool keeps in its template.
 */
final class ObjectKeys {
    private static final List<String> POOL_KINDS = List.of("NodePool", "Provisioner");
    private static final List<String> NODE_CLASS_KINDS = List.of("EC2NodeClass", "AWSNodeTemplate");

    private ObjectKeys() {}

    /**
     * Fails with one line naming the field, {@code where} spelling a path from the object as the setting it came
     * from (e.g. {@code [spec, template, metadata, labels]} as {@code node_pool_spec.template.metadata.labels}).
     */
    static void require(KubernetesObject<Map<String, Object>> object, Function<List<String>, String> where) {
        Map<String, Object> spec = object.spec();
        if (POOL_KINDS.contains(object.kind())) {
            boolean provisioner = object.kind().equals("Provisioner");
            List<String> template = provisioner ? List.of() : List.of("template", "metadata");
            List<String> nodeSpec = provisioner ? List.of() : List.of("template", "spec");
            labels(spec, append(template, "labels"), where);
            annotations(spec, append(template, "annotations"), where);
            for (String taints : List.of("taints", "startupTaints")) {
                keysOfItems(spec, append(nodeSpec, taints), where, true);
            }
            keysOfItems(spec, append(nodeSpec, "requirements"), where, false);
        } else if (NODE_CLASS_KINDS.contains(object.kind())) {
            if (SpecRules.at(spec, List.of("tags")) instanceof Map<?, ?> tags) {
                String place = where.apply(List.of("spec", "tags"));
                tags.forEach((key, value) -> {
                    String tagKey = String.valueOf(key);
                    AwsRules.requireEc2Tag(place, tagKey, String.valueOf(value));
                    NodePoolRules.reservedTagKey(tagKey).ifPresent(reserved -> {
                        throw new ConfigException(place + " keys may not be " + reserved
                                + ": Karpenter tags what it launches with it itself, got "
                                + ConfigException.quote(tagKey));
                    });
                });
            }
        }
    }

    private static void labels(Map<String, Object> spec, List<String> path, Function<List<String>, String> where) {
        if (SpecRules.at(spec, path) instanceof Map<?, ?> labels) {
            String place = where.apply(withSpec(path));
            labels.forEach((key, value) -> {
                Kubernetes.requireLabelKey(place, String.valueOf(key));
                Kubernetes.requireLabelValue(place + "." + key, String.valueOf(value));
            });
        }
    }

    @SuppressWarnings("unchecked")
    private static void annotations(Map<String, Object> spec, List<String> path, Function<List<String>, String> where) {
        if (SpecRules.at(spec, path) instanceof Map<?, ?> annotations) {
            String place = where.apply(withSpec(path));
            annotations.keySet().forEach(key -> Kubernetes.requireQualifiedName(place + " keys", String.valueOf(key)));
            Kubernetes.requireAnnotationsSize(place, (Map<String, ?>) annotations);
        }
    }

    /** The key of each item of a list of taints or requirements (and a taint's value, a label value too). */
    private static void keysOfItems(
            Map<String, Object> spec, List<String> path, Function<List<String>, String> where, boolean taint) {
        if (SpecRules.at(spec, path) instanceof List<?> items) {
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i) instanceof Map<?, ?> item) {
                    String place = where.apply(withSpec(path)) + "[" + i + "]";
                    if (item.get("key") instanceof String key) {
                        Kubernetes.requireQualifiedName(place + ".key", key);
                    }
                    if (taint && item.get("value") instanceof String value) {
                        Kubernetes.requireLabelValue(place + ".value", value);
                    }
                }
            }
        }
    }

    private static List<String> withSpec(List<String> path) {
        List<String> longer = new ArrayList<>(List.of("spec"));
        longer.addAll(path);
        return List.copyOf(longer);
    }

    private static List<String> append(List<String> path, String... more) {
        List<String> longer = new ArrayList<>(path);
        longer.addAll(List.of(more));
        return List.copyOf(longer);
    }
}
