package dev.platform.karpenter.config;

import dev.platform.karpenter.release.DeclaredApis;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of node_overlays: a NodeOverlay (karpenter.sh/v1alpha1, from Karpenter 1.7) as upstream spells it. Its
 * spec is checked against the release's CRD at synth (nodepools.manifest.SpecCheck), like the pools' specs.
 *
 * @param metadata labels and annotations of the object (its name is {@code name})
 */
public record NodeOverlaySettings(String name, Map<String, Object> metadata, Map<String, Object> spec) {
    private static final Set<String> KEYS = Set.of("name", "spec", "metadata");
    private static final Set<String> METADATA_KEYS = Set.of("labels", "annotations");

    /** The entries of node_overlays, validated: names unique, only name, spec and metadata, a release with the kind. */
    static List<NodeOverlaySettings> from(SettingsReader settings, DeclaredApis apis) {
        List<Map<String, Object>> entries = settings.get(SettingsCatalogue.NODE_OVERLAYS);
        if (!entries.isEmpty()) {
            SettingsCatalogue.NODE_OVERLAYS.requireApplies(apis, "remove node_overlays");
        }
        List<NodeOverlaySettings> overlays = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = "node_overlays[" + i + "]";
            Map<String, Object> entry = entries.get(i);
            for (String key : entry.keySet()) {
                ConfigException.require(
                        KEYS.contains(key),
                        () -> where + ": unknown setting " + key + " (an entry has name, spec and" + " metadata)");
            }
            Object name = entry.get("name");
            ConfigException.require(name instanceof String, () -> where + ".name is required: a Kubernetes name");
            Kubernetes.requireDnsSubdomain(where + ".name", (String) name);
            ConfigException.require(
                    names.add((String) name),
                    () -> where + ".name " + ConfigException.quote((String) name) + " is used by another node overlay");
            Map<String, Object> spec = object(entry.get("spec"), where + ".spec");
            Map<String, Object> metadata = object(entry.getOrDefault("metadata", Map.of()), where + ".metadata");
            for (Map.Entry<String, Object> field : metadata.entrySet()) {
                String key = where + ".metadata." + field.getKey();
                ConfigException.require(
                        METADATA_KEYS.contains(field.getKey()),
                        () -> where + ".metadata may set labels and annotations only, not " + field.getKey());
                Map<String, Object> strings = object(field.getValue(), key);
                strings.forEach((entryKey, value) -> {
                    ConfigException.require(value instanceof String, () -> key + "." + entryKey + " must be a string");
                    if (field.getKey().equals("labels")) {
                        Kubernetes.requireLabelKey(key, entryKey);
                        Kubernetes.requireLabelValue(key + "." + entryKey, (String) value);
                    }
                });
            }
            overlays.add(new NodeOverlaySettings((String) name, metadata, spec));
        }
        return List.copyOf(overlays);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String where) {
        ConfigException.require(value instanceof Map<?, ?>, () -> where + " must be an object { ... }");
        return (Map<String, Object>) value;
    }
}
