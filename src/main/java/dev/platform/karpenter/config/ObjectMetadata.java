package dev.platform.karpenter.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * metadata of a pool or node class object as an entry of node_pools or node_classes writes it: labels and
 * annotations, checked as the API server checks them. name and namespace are the project's: the name is the entry's,
 * and the objects are cluster-scoped.
 */
public record ObjectMetadata(Map<String, String> labels, Map<String, String> annotations) {
    public static final ObjectMetadata NONE = new ObjectMetadata(Map.of(), Map.of());

    /** {@code written} is the entry's metadata map; {@code key} its place ("node_pools[0].metadata"). */
    static ObjectMetadata from(String key, Map<String, Object> written) {
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        written.forEach((field, value) -> {
            switch (field) {
                case "labels" ->
                    strings(key + ".labels", value).forEach((label, text) -> {
                        Kubernetes.requireLabelKey(key + ".labels", label);
                        Kubernetes.requireLabelValue(key + ".labels." + label, text);
                        labels.put(label, text);
                    });
                case "annotations" ->
                    strings(key + ".annotations", value).forEach((annotation, text) -> {
                        Kubernetes.requireLabelKey(key + ".annotations", annotation);
                        annotations.put(annotation, text);
                    });
                case "name", "namespace" ->
                    throw new ConfigException(key + "." + field
                            + " is set by the project: the object is named after the entry's name, and pools and node"
                            + " classes have no namespace");
                default ->
                    throw new ConfigException(
                            key + "." + field + ": unknown field; allowed: \"labels\", \"annotations\"");
            }
        });
        Kubernetes.requireAnnotationsSize(key + ".annotations", annotations);
        // The order written stays the order rendered.
        return new ObjectMetadata(Collections.unmodifiableMap(labels), Collections.unmodifiableMap(annotations));
    }

    /** Whether it has no label and no annotation. */
    public boolean isEmpty() {
        return labels.isEmpty() && annotations.isEmpty();
    }

    private static Map<String, String> strings(String key, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new ConfigException(key + ": must be a map of strings, such as { team = \"platform\" }");
        }
        Map<String, String> strings = new LinkedHashMap<>();
        map.forEach((name, text) -> {
            if (!(text instanceof String string)) {
                throw new ConfigException(key + "." + name + ": must be a string (quote numbers and booleans)");
            }
            strings.put(String.valueOf(name), string);
        });
        return strings;
    }
}
