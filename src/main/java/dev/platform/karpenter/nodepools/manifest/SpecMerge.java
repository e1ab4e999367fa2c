package dev.platform.karpenter.nodepools.manifest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream fields a user wrote (node_pool_spec, node_class_spec, a node_pools or node_classes entry's spec) over the
 * spec the typed settings produce: maps merge key by key, a list or a scalar replaces what was there, and null
 * removes the field. The result holds no null: one written where there was nothing to remove is left out too.
 */
final class SpecMerge {
    private SpecMerge() {}

    static Map<String, Object> over(Map<String, Object> base, Map<String, ?> overlay) {
        if (overlay.isEmpty()) {
            return base;
        }
        Map<String, Object> merged = new LinkedHashMap<>(base);
        overlay.forEach((key, value) -> {
            if (value == null) {
                merged.remove(key);
            } else if (value instanceof Map<?, ?> map && merged.get(key) instanceof Map<?, ?> existing) {
                merged.put(key, over(asTree(existing), asTree(map)));
            } else {
                merged.put(key, withoutNulls(value));
            }
        });
        return Collections.unmodifiableMap(merged);
    }

    /** A value as written, with every null in it left out. */
    private static Object withoutNulls(Object value) {
        if (value instanceof Map<?, ?> map) {
            return over(Map.of(), asTree(map));
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>();
            list.stream().filter(item -> item != null).forEach(item -> items.add(withoutNulls(item)));
            return Collections.unmodifiableList(items);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asTree(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
