package dev.platform.karpenter.config;

import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.DeclaredApis;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of an add-on kind's setting (node_overlays: a NodeOverlay), as upstream spells the object. Its spec is
 * checked against the release's CRD at synth (nodepools.manifest.SpecCheck), like the pools' specs.
 *
 * @param index    its place in the setting's list, for messages
 * @param metadata labels and annotations of the object (its name is {@code name})
 */
public record AddOnObject(
        AddOnKind kind, int index, String name, Map<String, Object> metadata, Map<String, Object> spec) {
    private static final Set<String> KEYS = Set.of("name", "spec", "metadata");
    private static final Set<String> METADATA_KEYS = Set.of("labels", "annotations");

    /** Where a message points: "node_overlays[0]". */
    public String where() {
        return kind.setting() + "[" + index + "]";
    }

    /**
     * The objects of every add-on kind, kind by kind in their declared order, each validated: names unique within
     * the kind, only name, spec and metadata, a release that serves the kind.
     */
    static List<AddOnObject> from(SettingsReader settings, DeclaredApis apis) {
        List<AddOnObject> objects = new ArrayList<>();
        for (AddOnKind kind : AddOnKind.values()) {
            objects.addAll(from(settings, apis, kind));
        }
        return List.copyOf(objects);
    }

    private static List<AddOnObject> from(SettingsReader settings, DeclaredApis apis, AddOnKind kind) {
        Setting<List<Map<String, Object>>> setting = SettingsCatalogue.addOns(kind);
        List<Map<String, Object>> entries = settings.get(setting);
        if (!entries.isEmpty()) {
            setting.requireApplies(apis, "remove " + kind.setting());
        }
        List<AddOnObject> objects = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String where = kind.setting() + "[" + i + "]";
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
                    () -> where + ".name " + ConfigException.quote((String) name) + " is used by another "
                            + kind.noun());
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
            objects.add(new AddOnObject(kind, i, (String) name, metadata, spec));
        }
        return objects;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String where) {
        ConfigException.require(value instanceof Map<?, ?>, () -> where + " must be an object { ... }");
        return (Map<String, Object>) value;
    }
}
