package dev.platform.karpenter.testing.kubernetes;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A synthesized string as Terraform would hand it to Helm, with its references ({@code ${expr}}), known only at
 * apply, replaced by what the caller chooses: a recognisable marker, or a plausible resolved value. Escaped template
 * starts ({@code $${}, {@code %%{}) become the literal text Terraform yields.
 */
public final class TerraformReferences {
    private static final Pattern TEMPLATE = Pattern.compile("\\$\\$\\{|%%\\{|\\$\\{([^}]*)}");

    private TerraformReferences() {}

    /** {@code text} with each reference replaced by {@code resolve(expression)}. */
    public static String replace(String text, Function<String, String> resolve) {
        Matcher m = TEMPLATE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement = switch (m.group()) {
                case "$${" -> "${";
                case "%%{" -> "%{";
                default -> resolve.apply(m.group(1));
            };
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(out).toString();
    }

    /** The marker a reference becomes: {@code <tf:EXPRESSION>}. */
    public static String marker(String expression) {
        return "<tf:" + expression + ">";
    }

    /** {@code text} with each reference replaced by its {@link #marker}. */
    public static String markers(String text) {
        return replace(text, TerraformReferences::marker);
    }
}
