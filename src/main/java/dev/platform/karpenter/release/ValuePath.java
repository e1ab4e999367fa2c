package dev.platform.karpenter.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A key path into a chart's values, one segment per map level. A segment may itself contain dots (annotation keys
 * such as {@code eks.amazonaws.com/role-arn}), which is why paths are lists and not dotted strings.
 */
public record ValuePath(List<String> segments) {
    public ValuePath {
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a value path needs at least one segment");
        }
        segments = List.copyOf(segments);
    }

    public static ValuePath of(String... segments) {
        return new ValuePath(List.of(segments));
    }

    public ValuePath child(String segment) {
        List<String> longer = new ArrayList<>(segments);
        longer.add(segment);
        return new ValuePath(longer);
    }

    /** Whether {@code tree} (maps of maps, as tfvars objects read) holds this path, even as null. */
    public boolean isSetIn(Map<String, ?> tree) {
        Object at = tree;
        for (String key : segments) {
            if (!(at instanceof Map<?, ?> map) || !map.containsKey(key)) {
                return false;
            }
            at = map.get(key);
        }
        return true;
    }

    /** The value at this path in {@code tree}, or null where it holds none. */
    public Object valueIn(Map<String, ?> tree) {
        Object at = tree;
        for (String key : segments) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = map.get(key);
        }
        return at;
    }

    /** Helm's --set spelling: segments joined with dots, dots inside a segment escaped ({@code a.b\.c}). */
    @Override
    public String toString() {
        return String.join(
                ".",
                segments.stream().map(segment -> segment.replace(".", "\\.")).toList());
    }
}
