package dev.platform.karpenter.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resource requests and limits of the controller container, each a Kubernetes quantity written as a string
 * ({@code cpu = 1} in tfvars becomes "1").
 */
public record ControllerResources(Map<String, String> requests, Map<String, String> limits) {

    /** Upstream's getting-started guide: 1 CPU and 1Gi, requested and as the limit (Guaranteed QoS). */
    public static final ControllerResources GUIDE_DEFAULT = new ControllerResources(oneCpuOneGi(), oneCpuOneGi());

    /** Unset or empty: {@link #GUIDE_DEFAULT}; otherwise exactly what is given. */
    static ControllerResources from(String key, Map<String, Object> object) {
        if (object.isEmpty()) {
            return GUIDE_DEFAULT;
        }
        SettingsReader.requireFields(key, object, List.of("requests", "limits"), "requests and limits");
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

    /** In a fixed order (Map.of's changes from one JVM to the next, and the YAML must not). */
    private static Map<String, String> oneCpuOneGi() {
        Map<String, String> quantities = new LinkedHashMap<>();
        quantities.put("cpu", "1");
        quantities.put("memory", "1Gi");
        return Collections.unmodifiableMap(quantities);
    }

    private static Map<String, String> quantities(String key, Object value) {
        if (value == null) {
            return Map.of();
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry :
                SettingsReader.toObject(key, value).entrySet()) {
            String entryKey = key + "." + entry.getKey();
            String quantity = entry.getValue() instanceof Boolean || entry.getValue() == null
                    ? String.valueOf(entry.getValue())
                    : ControllerSettings.scalarAsString(entryKey, entry.getValue());
            Kubernetes.requirePositiveQuantity(entryKey, quantity, "\"500m\", \"1\" or \"1Gi\"");
            result.put(entry.getKey(), quantity);
        }
        return Collections.unmodifiableMap(result);
    }
}
