package dev.platform.karpenter.config;

import java.util.List;
import java.util.Map;

/**
 * An extra scheduling requirement of a pool: node_requirements = [{ key, operator, values }]. The operators and
 * their value rules are those Karpenter's Provisioner (0.x) and NodePool (1.x) both accept.
 */
public record NodeRequirement(String key, String operator, List<String> values) {
    static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");

    static NodeRequirement from(String where, Map<String, Object> fields) {
        SettingsReader settings = new SettingsReader(fields);
        try {
            String key = settings.requiredString("key");
            String operator = settings.requiredString("operator");
            List<String> values = settings.stringList("values", List.of());
            settings.rejectUnknownKeys();
            Kubernetes.requireLabelKey("key", key);
            requireValuesFit(operator, values);
            values.forEach(value -> Kubernetes.requireLabelValue("values", value));
            return new NodeRequirement(key, operator, values);
        } catch (ConfigException e) {
            throw e.in(where);
        }
    }

    private static void requireValuesFit(String operator, List<String> values) {
        switch (operator) {
            case "In", "NotIn" ->
                ConfigException.require(!values.isEmpty(), () -> "values must not be empty with operator " + operator);
            case "Exists", "DoesNotExist" ->
                ConfigException.require(values.isEmpty(), () -> "values must be empty with operator " + operator);
            case "Gt", "Lt" ->
                ConfigException.require(
                        values.size() == 1 && values.get(0).matches("\\d{1,18}"),
                        () -> "values must be one non-negative whole number with operator " + operator);
            default ->
                throw new ConfigException("operator must be one of " + String.join(", ", OPERATORS)
                        + " (the operators Karpenter accepts), got " + ConfigException.quote(operator) + "");
        }
    }
}
