package dev.platform.karpenter.config;

import java.util.regex.Pattern;

/**
 * A syntax a setting's text must follow, declared once with the words that explain it: the whole value matches
 * {@code pattern} within {@code maxLength} characters, or the setting is refused with "KEY RULE, got VALUE".
 */
record TextRule(Pattern pattern, int maxLength, String rule) {
    static TextRule of(String regex, String rule) {
        return of(regex, Integer.MAX_VALUE, rule);
    }

    static TextRule of(String regex, int maxLength, String rule) {
        return new TextRule(Pattern.compile(regex), maxLength, rule);
    }

    boolean matches(String value) {
        return value.length() <= maxLength && pattern.matcher(value).matches();
    }

    /** The value, once it follows the rule; a {@link ConfigException} naming {@code key} otherwise. */
    String require(String key, String value) {
        return ConfigException.require(matches(value), key, rule, value);
    }
}
