package dev.platform.karpenter.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Makes text that came from the configuration literal for Terraform: in a JSON configuration Terraform evaluates
 * every string as a template, so {@code ${...}} and {@code %{...}} in a user's value would be run at plan time.
 * Doubling them ({@code $${}, {@code %%{}) makes Terraform read them as plain text. The validation already refuses
 * these characters wherever a setting lands; this is the second wall, applied where strings enter a stack.
 *
 * <p>cdktf's own references inside a string ({@code ${TfToken[TOKEN.n]}}, resolved to Terraform references at
 * synth) are left as they are: they are the app's, and no setting can contain one (the validation refuses '$').
 */
public final class TerraformStrings {
    private static final Pattern TEMPLATE_START = Pattern.compile("\\$\\{(?!TfToken\\[TOKEN\\.\\d+]})|%\\{");

    private TerraformStrings() {}

    /** The text with every template start doubled, so that Terraform yields it unchanged. */
    public static String literal(String text) {
        return TEMPLATE_START.matcher(text).replaceAll(m -> m.group().charAt(0) == '$' ? "\\$\\$\\{" : "%%\\{");
    }

    /** {@link #literal(String)} applied to every key and value. */
    public static Map<String, String> literal(Map<String, String> map) {
        Map<String, String> result = new LinkedHashMap<>();
        map.forEach((key, value) -> result.put(literal(key), literal(value)));
        return result;
    }
}
