package dev.platform.karpenter.config;

import java.util.Map;

/** A taint Karpenter puts on the nodes of a pool: node_taints = [{ key, value, effect }]. */
public record NodeTaint(String key, String value, String effect) {
    static NodeTaint from(String where, Map<String, Object> fields) {
        SettingsReader settings = new SettingsReader(fields);
        try {
            String key = settings.requiredString("key");
            String value = settings.string("value", "");
            String effect = settings.requiredString("effect");
            settings.rejectUnknownKeys();
            Kubernetes.requireLabelKey("key", key);
            if (!value.isEmpty()) {
                Kubernetes.requireLabelValue("value", value);
            }
            Kubernetes.requireTaintEffect("effect", effect);
            return new NodeTaint(key, value, effect);
        } catch (ConfigException e) {
            throw e.in(where);
        }
    }
}
