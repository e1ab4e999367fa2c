package dev.platform.karpenter.versions;

import java.util.ArrayList;
import java.util.List;

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

    /** Helm's --set spelling: segments joined with dots, dots inside a segment escaped ({@code a.b\.c}). */
    @Override
    public String toString() {
        return String.join(
                ".",
                segments.stream().map(segment -> segment.replace(".", "\\.")).toList());
    }
}
