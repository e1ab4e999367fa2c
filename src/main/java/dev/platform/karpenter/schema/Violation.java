package dev.platform.karpenter.schema;

/**
 * One reason the API server would refuse an object.
 *
 * @param path the field, from the object's root, as a user writes it: {@code spec.disruption.budgets[0].nodes},
 *     {@code spec.template.metadata.labels["example.com/team"]}; empty for a rule on the whole object
 * @param message one line saying what is wrong with the value and what is allowed
 */
public record Violation(String path, String message) {
    public Violation {
        message = message.replaceAll("\\s+", " ").trim();
    }

    /** This violation with {@code prefix} in place of the leading {@code from} of its path ("spec" to "node_pool_spec"). */
    public Violation under(String from, String prefix) {
        if (path.equals(from)) {
            return new Violation(prefix, message);
        }
        if (path.startsWith(from + ".") || path.startsWith(from + "[")) {
            return new Violation(prefix + path.substring(from.length()), message);
        }
        return this;
    }

    /** {@code path: message}, or the message alone for the whole object. */
    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
