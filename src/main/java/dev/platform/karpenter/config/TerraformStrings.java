package dev.platform.karpenter.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one escape for text that came from the configuration on its way into Terraform. In a JSON configuration
 * Terraform evaluates every string as a template, so {@code ${...}} and {@code %{...}} in a user's value would run
 * at plan time; doubled ({@code $${}, {@code %%{}) they are plain text again. A whole document (Helm values, an
 * output's YAML) that also carries the project's own references goes through {@link TerraformDocument}, which
 * escapes all of its text here and then puts the references back.
 *
 * <p>cdktf resolves its token markers ({@code ${TfToken[TOKEN.n]}}) anywhere in a string, even behind an escaping
 * {@code $}: a user's text spelling one would turn into a reference. That one start is written
 * {@code ${"$"}{TfToken[}, which Terraform yields as {@code ${TfToken[} and in which cdktf finds no marker.
 */
public final class TerraformStrings {
    private static final Pattern TEMPLATE_START = Pattern.compile("\\$\\{(TfToken\\[)?|%\\{|#\\{TfToken\\[");

    private TerraformStrings() {}

    /** The text as a Terraform string template that yields exactly the text. */
    public static String literal(String text) {
        return TEMPLATE_START.matcher(text).replaceAll(match -> Matcher.quoteReplacement(escape(match.group())));
    }

    private static String escape(String start) {
        return switch (start) {
            case "${" -> "$${";
            case "%{" -> "%%{";
            // cdktf's list-token marker, likewise spelled so that cdktf finds none.
            case "#{TfToken[" -> "#${\"{\"}TfToken[";
            default -> "${\"$\"}{TfToken[";
        };
    }

    /** {@link #literal(String)} applied to every key and value. */
    public static Map<String, String> literal(Map<String, String> map) {
        Map<String, String> result = new LinkedHashMap<>();
        map.forEach((key, value) -> result.put(literal(key), literal(value)));
        return result;
    }

    /**
     * The text as a quoted string inside a Terraform expression ({@code ${contains(list, "TEXT")}}): HCL's string
     * escapes for quotes, backslashes and control characters (as tfvars spells them), then {@link #literal(String)},
     * since a quoted string is a template too.
     */
    public static String quoted(String text) {
        return literal(ConfigException.quoteWhole(text));
    }
}
