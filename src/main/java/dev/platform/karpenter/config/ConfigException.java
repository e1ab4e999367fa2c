package dev.platform.karpenter.config;

import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Bad input in a tfvars file. The message is one line of at most {@link #MAX_LENGTH} characters that names the
 * setting and what is allowed; the app prints it and exits 2 before anything is synthesized.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Longest message line, and longest error line the app prints (synth.Main): the one limit for both. */
    public static final int MAX_LENGTH = 300;
    /** Longest part of a user's value a message quotes. */
    static final int MAX_QUOTED = 40;

    public ConfigException(String message) {
        super(oneLine(message));
    }

    /** Prefixes the message with the file it came from, keeping it on one line. */
    public ConfigException in(String source) {
        return new ConfigException(source + ": " + getMessage());
    }

    /** Returns {@code value} when {@code valid}, else fails with "KEY RULE, got VALUE" (the value quoted). */
    static String require(boolean valid, String key, String rule, String value) {
        if (!valid) {
            throw new ConfigException(key + " " + rule + ", got " + quote(value));
        }
        return value;
    }

    /** Fails with {@code message} unless {@code valid}: a rule whose message is a sentence of its own. */
    static void require(boolean valid, Supplier<String> message) {
        if (!valid) {
            throw new ConfigException(message.get());
        }
    }

    /** {@link #require} for a value that must match {@code pattern} whole. */
    static String requireMatch(Pattern pattern, String key, String rule, String value) {
        return requireMatch(pattern, Integer.MAX_VALUE, key, rule, value);
    }

    /** {@link #require} for a value of at most {@code maxLength} characters that must match {@code pattern} whole. */
    static String requireMatch(Pattern pattern, int maxLength, String key, String rule, String value) {
        return require(value.length() <= maxLength && pattern.matcher(value).matches(), key, rule, value);
    }

    /**
     * A user's value for a message (the app's one quoting helper, for tfvars values, environment variables and paths
     * alike): in double quotes, control characters and quotes escaped as in tfvars, cut to
     * {@value #MAX_QUOTED} characters with "..." so that a long value cannot hide what the message says.
     */
    public static String quote(String value) {
        return quote(value, MAX_QUOTED);
    }

    /** {@link #quote} without the cut: a whole value as a tfvars string literal. */
    public static String quoteWhole(String value) {
        return quote(value, Integer.MAX_VALUE);
    }

    /** The allowed values for a message: {@code "a"}, {@code "a" or "b"}, {@code one of "a", "b", "c"}. */
    public static String quoteAll(java.util.List<String> values) {
        java.util.List<String> quoted =
                values.stream().map(ConfigException::quote).toList();
        return switch (quoted.size()) {
            case 1 -> quoted.get(0);
            case 2 -> quoted.get(0) + " or " + quoted.get(1);
            default -> "one of " + String.join(", ", quoted);
        };
    }

    private static String quote(String value, int maxShown) {
        StringBuilder out = new StringBuilder("\"");
        int shown = 0;
        for (int i = 0; i < value.length(); i = value.offsetByCodePoints(i, 1)) {
            if (shown == maxShown) {
                return out.append("...\" (")
                        .append(value.length())
                        .append(" characters)")
                        .toString();
            }
            int c = value.codePointAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (Character.isISOControl(c)
                            || Character.getType(c) == Character.FORMAT
                            || Character.getType(c) == Character.LINE_SEPARATOR
                            || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
            shown++;
        }
        return out.append('"').toString();
    }

    private static String oneLine(String message) {
        String line = message.replaceAll("[\\p{Cntrl}\\u2028\\u2029]+", " ").strip();
        return line.length() <= MAX_LENGTH ? line : line.substring(0, MAX_LENGTH - 3) + "...";
    }
}
