package dev.platform.karpenter.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed, tracked access to the settings of one tfvars file (or one node_pools entry, or one nested object). Every
 * read marks its key as known, so after all records have read theirs, {@link #rejectUnknownKeys()} names any key
 * nobody asked for (a typo would otherwise be silently ignored). Catalogued settings are read by their
 * {@link Setting} entry, which gives the type, the default and what is allowed; errors name the key and what it must be.
 */
public final class SettingsReader {
    private final Map<String, Object> values;
    private final Set<String> known = new HashSet<>();
    /** Where the values were written; empty for a nested object, whose fields are read by name. */
    private final Optional<Setting.Scope> scope;

    /** The fields of a nested object; {@code values} may hold nulls: a field written as {@code null} is unset. */
    public SettingsReader(Map<String, Object> values) {
        this(values, Optional.empty());
    }

    private SettingsReader(Map<String, Object> values, Optional<Setting.Scope> scope) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.scope = scope;
    }

    /** The top-level settings of one cluster's file. */
    public static SettingsReader cluster(Map<String, Object> values) {
        return new SettingsReader(values, Optional.of(Setting.Scope.CLUSTER));
    }

    /** One entry of node_pools. */
    static SettingsReader pool(Map<String, Object> values) {
        return new SettingsReader(values, Optional.of(Setting.Scope.NODE_POOL));
    }

    /** One entry of node_classes. */
    static SettingsReader nodeClass(Map<String, Object> values) {
        return new SettingsReader(values, Optional.of(Setting.Scope.NODE_CLASS));
    }

    /** The setting's value, else its default; for a setting without one, use {@link #optional}. */
    public <T> T get(Setting<T> setting) {
        return optional(setting)
                .or(setting::defaultValue)
                .orElseThrow(() -> new IllegalStateException(
                        "setting " + setting.key() + " has no default in SettingsCatalogue; read it with optional"));
    }

    /** The setting's value if it is set, checked against what its entry allows. */
    public <T> Optional<T> optional(Setting<T> setting) {
        if (scope.isEmpty() || !setting.scopes().contains(scope.get())) {
            throw new IllegalStateException("setting " + setting.key() + " is not read in "
                    + scope.map(Setting.Scope::where).orElse("a nested object") + " (SettingsCatalogue)");
        }
        Object value = read(setting.key());
        return value == null ? Optional.empty() : Optional.of(setting.convert(value));
    }

    /** The setting's value; unset, a one-line error. */
    public <T> T required(Setting<T> setting) {
        return optional(setting).orElseThrow(() -> new ConfigException(setting.key() + " is required"));
    }

    /** A field of a nested object; unset, a one-line error. */
    public String requiredString(String key) {
        return optionalString(key).orElseThrow(() -> new ConfigException(key + " is required"));
    }

    public String string(String key, String defaultValue) {
        return optionalString(key).orElse(defaultValue);
    }

    public Optional<String> optionalString(String key) {
        return Optional.ofNullable(field(key)).map(value -> cast(key, value, String.class, "a string"));
    }

    public List<String> stringList(String key, List<String> defaultValue) {
        Object value = field(key);
        return value == null ? defaultValue : toStringList(key, value);
    }

    /** A field of a nested object, read by name; catalogued settings are read by entry. */
    private Object field(String key) {
        if (scope.isPresent()) {
            throw new IllegalStateException(
                    "setting " + key + " is catalogued: read it by its SettingsCatalogue entry");
        }
        return read(key);
    }

    /** {@code value} as a {@code type} ({@code expected} says so in the error). */
    static <T> T cast(String key, Object value, Class<T> type, String expected) {
        if (!type.isInstance(value)) {
            throw wrongType(key, expected, value);
        }
        return type.cast(value);
    }

    static List<String> toStringList(String key, Object value) {
        if (!(value instanceof List<?> list)) {
            throw wrongType(key, "a list of strings", value);
        }
        List<String> result = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof String text)) {
                throw wrongType(key, "a list of strings", value);
            }
            result.add(text);
        }
        return List.copyOf(result);
    }

    /** A list of objects (HCL `[{ ... }, { ... }]`), each as an unmodifiable map. */
    static List<Map<String, Object>> toObjectList(String key, Object value) {
        if (!(value instanceof List<?> list)) {
            throw wrongType(key, "a list of objects", value);
        }
        List<Map<String, Object>> result = new ArrayList<>();
        for (Object item : list) {
            result.add(toObject(key, item));
        }
        return List.copyOf(result);
    }

    /** The keys read so far. */
    Set<String> readKeys() {
        return Set.copyOf(known);
    }

    /** Fails naming every key that no record read. Call once, after all records were built. */
    public void rejectUnknownKeys() {
        Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown setting" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + "; terraform.tfvars.example lists every setting");
        }
    }

    private Object read(String key) {
        known.add(key);
        return values.get(key);
    }

    static int toInteger(String key, Object value) {
        if (value instanceof Number number) {
            BigDecimal decimal = new BigDecimal(number.toString());
            if (decimal.stripTrailingZeros().scale() <= 0
                    && decimal.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0
                    && decimal.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0) {
                return decimal.intValueExact();
            }
        }
        throw wrongType(key, "a whole number", value);
    }

    static Map<String, String> toStringMap(String key, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw wrongType(key, "a map of strings", value);
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getValue() instanceof String text)) {
                throw wrongType(key + "." + entry.getKey(), "a string", entry.getValue());
            }
            result.put(entry.getKey().toString(), text);
        }
        return Collections.unmodifiableMap(result);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> toObject(String key, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw wrongType(key, "an object", value);
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>((Map<String, Object>) map));
    }

    /** Refuses a field of the object setting {@code key} outside {@code allowed}, which {@code takes} describes. */
    static void requireFields(String key, Map<String, ?> object, Collection<String> allowed, String takes) {
        for (String field : object.keySet()) {
            ConfigException.require(
                    allowed.contains(field), () -> key + "." + field + " is not allowed; " + key + " takes " + takes);
        }
    }

    static ConfigException wrongType(String key, String expected, Object actual) {
        return new ConfigException(key + " must be " + expected + ", got " + describe(actual));
    }

    private static String describe(Object value) {
        if (value instanceof String text) {
            return "the string " + ConfigException.quote(text);
        }
        if (value instanceof List<?>) {
            return "a list";
        }
        if (value instanceof Map<?, ?>) {
            return "an object";
        }
        return value instanceof Boolean || value instanceof Number || value == null
                ? String.valueOf(value)
                : ConfigException.quote(String.valueOf(value));
    }
}
