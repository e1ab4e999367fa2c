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

    /** {@code path: message}, or the message alone for the whole object. */
    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
