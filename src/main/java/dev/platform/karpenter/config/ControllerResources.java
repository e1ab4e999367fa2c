package dev.platform.karpenter.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Resource requests and limits of the controller container, each a Kubernetes quantity written as a string
 * ({@code cpu = 1} in tfvars becomes "1").
 */
public record ControllerResources(Map<String, String> requests, Map<String, String> limits) {

    static ControllerResources from(String key, Map<String, Object> object) {
        for (String field : object.keySet()) {
            if (!field.equals("requests") && !field.equals("limits")) {
                throw new ConfigException(key + "." + field + " is not allowed; " + key + " takes requests and limits");
            }
        }
        return new ControllerResources(
                quantities(key + ".requests", object.get("requests")),
                quantities(key + ".limits", object.get("limits")));
    }

    public boolean isChartDefault() {
        return requests.isEmpty() && limits.isEmpty();
    }

    /** The requirements as in a container spec, empty parts left out. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        if (!requests.isEmpty()) {
            map.put("requests", requests);
        }
        if (!limits.isEmpty()) {
            map.put("limits", limits);
        }
        return map;
    }

    private static Map<String, String> quantities(String key, Object value) {
        if (value == null) {
            return Map.of();
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : Settings.toObject(key, value).entrySet()) {
            String entryKey = key + "." + entry.getKey();
            String quantity = entry.getValue() instanceof Boolean || entry.getValue() == null
                    ? String.valueOf(entry.getValue()) : ControllerSettings.scalarAsString(entryKey, entry.getValue());
            Kubernetes.requirePositiveQuantity(entryKey, quantity, "\"500m\", \"1\" or \"1Gi\"");
            result.put(entry.getKey(), quantity);
        }
        return Collections.unmodifiableMap(result);
    }
}
