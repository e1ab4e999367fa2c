package dev.platform.karpenter.config;

import dev.platform.karpenter.release.DeclaredApis;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * One setting of the tfvars, declared once in {@link SettingsCatalogue}: key, type, default, what is allowed, the
 * Karpenter releases it applies to, where it may be written, and what it does. {@link SettingsReader#get} reads it and checks
 * what the entry states (type, allowed values, lower bound); {@link #requireApplies} checks the release span; the
 * README's settings tables and terraform.tfvars.example are generated from the entries (SettingsDocs).
 *
 * @param <T> what the reader returns: String, Boolean, Integer, List&lt;String&gt;, Map&lt;String, String&gt;,
 *     Map&lt;String, Object&gt; (an object), List&lt;Map&lt;String, Object&gt;&gt; (a list of objects), or an enum
 */
public final class Setting<T> {
    /** What a setting holds, as tfvars writes it (and Terraform's variable types name it). */
    public enum Type {
        STRING,
        BOOL,
        NUMBER,
        LIST,
        MAP,
        OBJECT,
        OBJECT_LIST;

        /** The type as a Terraform variable declares it. */
        public String terraform() {
            return switch (this) {
                case STRING -> "string";
                case BOOL -> "bool";
                case NUMBER -> "number";
                case LIST -> "list(string)";
                case MAP -> "map(string)";
                case OBJECT -> "object";
                case OBJECT_LIST -> "list(object)";
            };
        }
    }

    /** Where a setting may be written. */
    public enum Scope {
        /** A top-level setting of a cluster's file. */
        CLUSTER,
        /** A key of a node_pools entry. */
        NODE_POOL,
        /** A key of a node_classes entry. */
        NODE_CLASS;

        /** How the docs name the place. */
        public String where() {
            return switch (this) {
                case CLUSTER -> "cluster";
                case NODE_POOL -> "node_pools entry";
                case NODE_CLASS -> "node_classes entry";
            };
        }
    }

    private final SettingsCatalogue.Section section;
    private final String key;
    private final Type type;
    private final BiFunction<String, Object, T> convert;
    private final T defaultValue;
    private final String derivedDefault;
    private final boolean required;
    private final Set<Scope> scopes;
    private final ReleaseSpan releases;
    private final List<String> allowed;
    private final Map<String, ReleaseSpan> allowedReleases;
    private final Class<? extends SettingChoice> choices;
    private final Integer min;
    private final boolean nonEmpty;
    private final String example;
    private final boolean exampleShown;
    private final String description;
    private final String details;

    private Setting(Builder<T> b, String description, String details) {
        this.section = b.section;
        this.key = b.key;
        this.type = b.type;
        this.convert = b.convert;
        this.defaultValue = b.defaultValue;
        this.derivedDefault = b.derivedDefault;
        this.required = b.required;
        this.scopes = Set.copyOf(b.scopes);
        this.releases = b.releases;
        this.allowed = List.copyOf(b.allowed);
        this.allowedReleases = Map.copyOf(b.allowedReleases);
        this.choices = b.choices;
        this.min = b.min;
        this.nonEmpty = b.nonEmpty;
        this.example = b.example;
        this.exampleShown = b.exampleShown;
        this.description = description;
        this.details = details;
    }

    public String key() {
        return key;
    }

    public Type type() {
        return type;
    }

    public SettingsCatalogue.Section section() {
        return section;
    }

    /** The value when the setting is unset or null; empty when it is required, derived, or simply absent. */
    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** What an unset setting takes when that comes from another setting, e.g. "the cluster name". */
    public Optional<String> derivedDefault() {
        return Optional.ofNullable(derivedDefault);
    }

    public boolean required() {
        return required;
    }

    public Set<Scope> scopes() {
        return scopes;
    }

    /** Whether a node_pools entry may set it (taking it from the top level when it does not). */
    public boolean inPools() {
        return scopes.contains(Scope.NODE_POOL);
    }

    /** The Karpenter releases it applies to. */
    public ReleaseSpan releases() {
        return releases;
    }

    /**
     * The values it takes (of a list setting: its items), in the tfvars spelling, each with the releases that
     * accept it where they are fewer than the setting's; empty when any value of its type is allowed.
     */
    public List<Allowed> allowed() {
        if (choices != null) {
            return Arrays.stream(choices.getEnumConstants())
                    .map(value -> new Allowed(value.setting(), value.releases()))
                    .toList();
        }
        return allowed.stream()
                .map(value -> new Allowed(value, allowedReleases.getOrDefault(value, ReleaseSpan.ALL)))
                .toList();
    }

    /** The smallest value of a number setting. */
    public Optional<Integer> min() {
        return Optional.ofNullable(min);
    }

    /** Whether a list setting needs at least one item. */
    public boolean nonEmpty() {
        return nonEmpty;
    }

    /** What it does, in a few words (the README's tables, the first sentence in the example). */
    public String description() {
        return description;
    }

    /** More about it, for terraform.tfvars.example; may be empty. */
    public String details() {
        return details;
    }

    /** The value terraform.tfvars.example shows (HCL, may span lines), and whether the line is active there. */
    public String example() {
        return example;
    }

    public boolean exampleShown() {
        return exampleShown;
    }

    /** The value as it was written, converted and checked against what this entry allows. */
    T convert(Object value) {
        T converted = convert.apply(key, value);
        check(converted);
        return converted;
    }

    private void check(T value) {
        if (min != null && value instanceof Integer number && number < min) {
            throw new ConfigException(
                    key + " must " + (min == 0 ? "not be negative" : "be at least " + min) + ", got " + number);
        }
        if (!allowed.isEmpty() && value instanceof List<?> list) {
            if (nonEmpty && list.isEmpty()) {
                throw new ConfigException(key + " must name at least one of " + ConfigException.quoteAll(allowed));
            }
            for (Object item : list) {
                if (!allowed.contains(item)) {
                    throw new ConfigException(key + " must contain only " + ConfigException.quoteAll(allowed) + ", got "
                            + ConfigException.quote(item.toString()));
                }
            }
        } else if (!allowed.isEmpty() && value instanceof String text && !allowed.contains(text)) {
            throw new ConfigException(
                    key + " must be " + ConfigException.quoteAll(allowed) + ", got " + ConfigException.quote(text));
        } else if (nonEmpty && value instanceof List<?> list && list.isEmpty()) {
            throw new ConfigException(key + " must not be empty");
        }
    }

    /**
     * Fails unless the declared generations are in this setting's release span: "KEY applies to Karpenter SPAN only;
     * with RELEASE HINT".
     */
    public void requireApplies(DeclaredApis apis, String hint) {
        if (!releases.contains(apis)) {
            throw new ConfigException(
                    key + " applies to Karpenter " + releases.text() + " only; with " + apis.release() + " " + hint);
        }
    }

    /**
     * Fails unless the declared generations accept {@code value} of a choice setting, naming the values they do.
     */
    public void requireAvailable(SettingChoice value, DeclaredApis apis) {
        if (!value.releases().contains(apis)) {
            throw new ConfigException(key + " " + ConfigException.quote(value.setting()) + " applies to Karpenter "
                    + value.releases().text() + " only; with " + apis.release() + " use "
                    + ConfigException.quoteAll(availableWith(apis)));
        }
    }

    /**
     * Fails unless the declared generations accept every item of a list setting's {@code values}, naming the first
     * one they do not and the values they do: "KEY "VALUE" applies to Karpenter SPAN only; with RELEASE use ...".
     */
    public void requireAvailable(List<String> values, DeclaredApis apis) {
        for (String value : values) {
            ReleaseSpan releases = allowedReleases.getOrDefault(value, ReleaseSpan.ALL);
            if (!releases.contains(apis)) {
                throw new ConfigException(key + " " + ConfigException.quote(value) + " applies to Karpenter "
                        + releases.text() + " only; with " + apis.release() + " use "
                        + ConfigException.quoteAll(availableWith(apis)));
            }
        }
    }

    /** The values the declared generations accept, in declaration order. */
    public List<String> availableWith(DeclaredApis apis) {
        return allowed().stream()
                .filter(a -> a.releases().contains(apis))
                .map(Allowed::value)
                .toList();
    }

    @Override
    public String toString() {
        return key;
    }

    /**
     * One value a setting takes.
     *
     * @param releases the releases accepting it
     */
    public record Allowed(String value, ReleaseSpan releases) {}

    /**
     * A setting being declared: start one with a {@link SettingsCatalogue.Section}'s factory, state what applies,
     * and finish with {@link #describe}, which adds it to the catalogue.
     */
    public static final class Builder<T> {
        private final SettingsCatalogue.Section section;
        private final String key;
        private final Type type;
        private final BiFunction<String, Object, T> convert;
        private T defaultValue;
        private String derivedDefault;
        private boolean required;
        private final Set<Scope> scopes = EnumSet.of(Scope.CLUSTER);
        private ReleaseSpan releases = ReleaseSpan.ALL;
        private final List<String> allowed = new ArrayList<>();
        private final Map<String, ReleaseSpan> allowedReleases = new HashMap<>();
        private Class<? extends SettingChoice> choices;
        private Integer min;
        private boolean nonEmpty;
        private String example;
        private boolean exampleShown;

        Builder(SettingsCatalogue.Section section, String key, Type type, BiFunction<String, Object, T> convert) {
            this.section = section;
            this.key = key;
            this.type = type;
            this.convert = convert;
        }

        /** The value when unset; terraform.tfvars.example shows it as an active line. */
        public Builder<T> byDefault(T value) {
            this.defaultValue = value;
            this.example = Hcl.literal(value);
            this.exampleShown = true;
            return this;
        }

        /** Unset, it takes a value from elsewhere, described so: "the cluster name". */
        public Builder<T> derivedDefault(String what) {
            this.derivedDefault = what;
            return this;
        }

        /** It must be set; {@code example} is what terraform.tfvars.example sets it to. */
        public Builder<T> required(String example) {
            this.required = true;
            this.example = example;
            this.exampleShown = true;
            return this;
        }

        /** terraform.tfvars.example shows it commented out, as {@code # key = hcl}. */
        public Builder<T> example(String hcl) {
            this.example = hcl;
            this.exampleShown = false;
            return this;
        }

        /** terraform.tfvars.example shows its default commented out (it applies in some setups only). */
        public Builder<T> defaultCommentedOut() {
            this.exampleShown = false;
            return this;
        }

        /** Where else it may be written: a node_pools entry takes what it leaves out from the top level. */
        public Builder<T> alsoIn(Scope... more) {
            scopes.addAll(List.of(more));
            return this;
        }

        /** Only in these places (e.g. a key only node_pools entries take). */
        public Builder<T> onlyIn(Scope... places) {
            scopes.clear();
            scopes.addAll(List.of(places));
            return this;
        }

        public Builder<T> releases(ReleaseSpan span) {
            this.releases = span;
            return this;
        }

        /** The only values (of a list: items) it takes, in this order in messages and docs. */
        public Builder<T> oneOf(String... values) {
            allowed.addAll(List.of(values));
            return this;
        }

        /** One more value it takes, from the releases of {@code span} only ({@link #requireAvailable}). */
        public Builder<T> oneOfIn(ReleaseSpan span, String value) {
            allowed.add(value);
            allowedReleases.put(value, span);
            return this;
        }

        /** A list needing at least one item. */
        public Builder<T> nonEmpty() {
            this.nonEmpty = true;
            return this;
        }

        /** The smallest value of a number. */
        public Builder<T> atLeast(int value) {
            this.min = value;
            return this;
        }

        Builder<T> choices(Class<? extends SettingChoice> type) {
            this.choices = type;
            return this;
        }

        /** Finishes the entry and adds it to the catalogue. */
        public Setting<T> describe(String description) {
            return describe(description, "");
        }

        /**
         * Finishes the entry and adds it to the catalogue.
         *
         * @param description what it does in a few words, no final period (the README's tables)
         * @param details     more for terraform.tfvars.example: whole sentences, or empty
         */
        public Setting<T> describe(String description, String details) {
            if (example == null && defaultValue == null) {
                throw new IllegalStateException(key + ": give an example or a default");
            }
            Setting<T> setting = new Setting<>(this, description, details);
            SettingsCatalogue.register(setting);
            return setting;
        }
    }

    /** HCL literals of defaults, as terraform.tfvars.example writes them. */
    static final class Hcl {
        private Hcl() {}

        static String literal(Object value) {
            if (value instanceof SettingChoice choice) {
                return literal(choice.setting());
            }
            if (value instanceof String text) {
                return ConfigException.quoteWhole(text);
            }
            if (value instanceof List<?> list) {
                return "[" + String.join(", ", list.stream().map(Hcl::literal).toList()) + "]";
            }
            if (value instanceof Map<?, ?> map) {
                return map.isEmpty()
                        ? "{}"
                        : "{ "
                                + String.join(
                                        ", ",
                                        map.entrySet().stream()
                                                .map(e -> e.getKey() + " = " + literal(e.getValue()))
                                                .toList())
                                + " }";
            }
            return String.valueOf(value);
        }
    }
}
