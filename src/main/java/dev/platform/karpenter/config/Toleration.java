package dev.platform.karpenter.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One Kubernetes toleration of the controller pods. The value is always a string: Kubernetes rejects a boolean or
 * number there ("cannot unmarshal bool into Go struct field"), so {@code value = true} in tfvars becomes "true".
 */
public record Toleration(
        Optional<String> key,
        String operator,
        Optional<String> value,
        Optional<String> effect,
        Optional<Long> tolerationSeconds) {

    private static final Set<String> FIELDS = Set.of("key", "operator", "value", "effect", "tolerationSeconds");
    private static final Set<String> OPERATORS = Set.of("Equal", "Exists");

    /** Validates one toleration as the Kubernetes API would, naming {@code key} (e.g. controller_tolerations[0]). */
    static Toleration from(String key, Map<String, Object> fields) {
        for (String field : fields.keySet()) {
            ConfigException.require(
                    FIELDS.contains(field),
                    () -> key + "." + field
                            + " is not a toleration field; allowed: key, operator, value, effect, tolerationSeconds");
        }
        Optional<String> tolerationKey = optionalString(key, "key", fields.get("key"));
        String operator =
                optionalString(key, "operator", fields.get("operator")).orElse("Equal");
        ConfigException.require(
                OPERATORS.contains(operator), key + ".operator", "must be \"Equal\" or \"Exists\"", operator);
        Optional<String> value =
                Optional.ofNullable(fields.get("value")).map(v -> ControllerSettings.scalarAsString(key + ".value", v));
        ConfigException.require(
                !(operator.equals("Exists") && value.isPresent()),
                () -> key + ".value must be omitted when operator is \"Exists\"");
        ConfigException.require(
                tolerationKey.isPresent() || operator.equals("Exists"),
                () -> key + ".operator must be \"Exists\" when key is omitted (a toleration of every taint)");
        Optional<String> effect = optionalString(key, "effect", fields.get("effect"));
        tolerationKey.ifPresent(k -> Kubernetes.requireLabelKey(key + ".key", k));
        value.ifPresent(v -> Kubernetes.requireLabelValue(key + ".value", v));
        effect.ifPresent(e -> Kubernetes.requireTaintEffect(key + ".effect", e));
        Optional<Long> seconds = Optional.ofNullable(fields.get("tolerationSeconds"))
                .map(v -> (long) SettingsReader.toInteger(key + ".tolerationSeconds", v));
        seconds.ifPresent(s -> {
            ConfigException.require(s >= 0, () -> key + ".tolerationSeconds must not be negative, got " + s);
            ConfigException.require(
                    effect.equals(Optional.of("NoExecute")),
                    () -> key + ".tolerationSeconds needs effect = \"NoExecute\"");
        });
        return new Toleration(tolerationKey, operator, value, effect, seconds);
    }

    /** The toleration as in a pod spec, fields that are not set left out. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        key.ifPresent(k -> map.put("key", k));
        map.put("operator", operator);
        value.ifPresent(v -> map.put("value", v));
        effect.ifPresent(e -> map.put("effect", e));
        tolerationSeconds.ifPresent(s -> map.put("tolerationSeconds", s));
        return map;
    }

    private static Optional<String> optionalString(String key, String field, Object value) {
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw SettingsReader.wrongType(key + "." + field, "a string", value);
        }
        return Optional.of(text);
    }
}
