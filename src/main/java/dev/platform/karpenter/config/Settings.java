package dev.platform.karpenter.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed, tracked access to the top-level variables of one tfvars file. Every read marks its key as known, so
 * after all records have read theirs, {@link #rejectUnknownKeys()} names any key nobody asked for (a typo would
 * otherwise be silently ignored). Type errors name the key and the expected type.
 */
public final class Settings {
    /**
     * Which keys the code may read: any (a nested object), the catalogue's, those a node_pools entry takes, or
     * those a node_classes entry takes.
     */
    private enum Scope {
        ANY,
        CLUSTER,
        POOL,
        NODE_CLASS
    }

    private final Map<String, Object> values;
    private final Set<String> known = new HashSet<>();
    private final Scope scope;

    /** The fields of a nested object; {@code values} may hold nulls: a field written as {@code null} is unset. */
    public Settings(Map<String, Object> values) {
        this(values, Scope.ANY);
    }

    private Settings(Map<String, Object> values, Scope scope) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.scope = scope;
    }

    /** The top-level settings of one cluster's file, read through {@link SettingsCatalogue}. */
    public static Settings cluster(Map<String, Object> values) {
        return new Settings(values, Scope.CLUSTER);
    }

    /** One entry of node_pools: its name and the catalogue's pool settings. */
    static Settings pool(Map<String, Object> values) {
        return new Settings(values, Scope.POOL);
    }

    /** One entry of node_classes: the keys of SettingsCatalogue.NODE_CLASS_ENTRY_KEYS. */
    static Settings nodeClass(Map<String, Object> values) {
        return new Settings(values, Scope.NODE_CLASS);
    }

    /** A catalogued string setting, its default from the catalogue. */
    public String string(String key) {
        return string(key, SettingsCatalogue.defaultOf(key));
    }

    /** A catalogued true/false setting, its default from the catalogue. */
    public boolean bool(String key) {
        return bool(key, SettingsCatalogue.<Boolean>defaultOf(key));
    }

    /** A catalogued whole-number setting, its default from the catalogue. */
    public int integer(String key) {
        return integer(key, Math.toIntExact(SettingsCatalogue.<Long>defaultOf(key)));
    }

    /** A catalogued setting that names one constant of {@code type}, by its tfvars spelling. */
    <E extends Enum<E> & SettingValue> E choice(String key, Class<E> type) {
        return SettingValue.parse(type, key, string(key));
    }

    public String requiredString(String key) {
        return optionalString(key).orElseThrow(() -> new ConfigException(key + " is required"));
    }

    public String string(String key, String defaultValue) {
        return optionalString(key).orElse(defaultValue);
    }

    public Optional<String> optionalString(String key) {
        return optional(key, String.class, "a string");
    }

    public boolean bool(String key, boolean defaultValue) {
        return optional(key, Boolean.class, "true or false").orElse(defaultValue);
    }

    /** The value of {@code key} if set, which must be a {@code type} ({@code expected} says so in the error). */
    private <T> Optional<T> optional(String key, Class<T> type, String expected) {
        Object value = read(key);
        if (value == null) {
            return Optional.empty();
        }
        if (!type.isInstance(value)) {
            throw wrongType(key, expected, value);
        }
        return Optional.of(type.cast(value));
    }

    public int integer(String key, int defaultValue) {
        return optionalInteger(key).orElse(defaultValue);
    }

    public Optional<Integer> optionalInteger(String key) {
        Object value = read(key);
        if (value == null) {
            return Optional.empty();
        }
        return Optional.of(toInteger(key, value));
    }

    public List<String> stringList(String key, List<String> defaultValue) {
        Object value = read(key);
        if (value == null) {
            return defaultValue;
        }
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

    public Map<String, String> stringMap(String key) {
        Object value = read(key);
        if (value == null) {
            return Map.of();
        }
        return toStringMap(key, value);
    }

    /** A list of objects (HCL `[{ ... }, { ... }]`), each as an unmodifiable map. */
    public List<Map<String, Object>> objectList(String key) {
        Object value = read(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw wrongType(key, "a list of objects", value);
        }
        List<Map<String, Object>> result = new ArrayList<>();
        for (Object item : list) {
            result.add(toObject(key, item));
        }
        return List.copyOf(result);
    }

    /** An object (HCL `{ ... }`) of any nesting, as an unmodifiable map. */
    public Map<String, Object> object(String key) {
        Object value = read(key);
        return value == null ? Map.of() : toObject(key, value);
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
        if (scope == Scope.CLUSTER) {
            SettingsCatalogue.get(key);
        } else if (scope == Scope.POOL
                && !SettingsCatalogue.POOL_ENTRY_KEYS.containsKey(key)
                && !SettingsCatalogue.get(key).pool()) {
            throw new IllegalStateException("setting " + key + " is not a pool setting in SettingsCatalogue");
        } else if (scope == Scope.NODE_CLASS && !SettingsCatalogue.NODE_CLASS_ENTRY_KEYS.containsKey(key)) {
            throw new IllegalStateException("setting " + key + " is not a node_classes key in SettingsCatalogue");
        }
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
