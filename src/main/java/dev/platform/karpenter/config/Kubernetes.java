package dev.platform.karpenter.config;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place for Kubernetes' syntax rules the settings must follow: names, label keys and values, quantities,
 * durations and taint effects. Each check throws a one-line {@link ConfigException} naming the setting.
 */
public final class Kubernetes {
    /** Taint effects, for node taints and for tolerations alike. */
    public static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    /** A DNS-1123 label: namespaces, service accounts. */
    private static final TextRule DNS_LABEL = TextRule.of(
            "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?",
            "must be a Kubernetes name (at most 63 lowercase letters, digits or '-')");
    /** A DNS-1123 subdomain: names of objects such as node pools. */
    private static final TextRule DNS_SUBDOMAIN = TextRule.of(
            "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
            253,
            "must be a Kubernetes name (at most 253 lowercase letters, digits, '-' or '.')");

    private static final Pattern NAME_PART = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final TextRule LABEL_VALUE = TextRule.of(
            "(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?",
            63,
            "must be a Kubernetes label value (at most 63 letters, digits, '-', '_' or '.')");
    /** Kubernetes' quantity grammar: a signed decimal with a binary (Ki..Ei), decimal (n..E) or exponent suffix. */
    private static final Pattern QUANTITY = Pattern.compile(
            "([+-]?)([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?");
    /** Karpenter's durations: Go's time.ParseDuration units from s up, e.g. "720h", "1h30m". */
    private static final Pattern DURATION = Pattern.compile("(([0-9]+)(h|m|s))+");

    private static final Pattern DURATION_PART = Pattern.compile("([0-9]+)(h|m|s)");

    private Kubernetes() {}

    static String requireDnsLabel(String key, String value) {
        return DNS_LABEL.require(key, value);
    }

    static String requireDnsSubdomain(String key, String value) {
        return DNS_SUBDOMAIN.require(key, value);
    }

    /** A label key (also taint and requirement keys): an optional DNS subdomain prefix and '/', then a name. */
    public static String requireLabelKey(String key, String name) {
        return requireKey(key, name, "must hold Kubernetes label keys such as \"example.com/team\"");
    }

    /** An annotation key, or any key Kubernetes checks as a qualified name: the same syntax as a label key. */
    public static String requireQualifiedName(String key, String name) {
        return requireKey(key, name, "must be a Kubernetes qualified name such as \"example.com/name\"");
    }

    private static String requireKey(String key, String name, String rule) {
        return ConfigException.require(
                isQualifiedName(name),
                key,
                rule + " (a lowercase DNS prefix and '/', then at most 63 letters, digits, '-', '_' or '.')",
                name);
    }

    /** What the API server takes as a key of labels and annotations: an optional DNS subdomain and '/', a name. */
    private static boolean isQualifiedName(String name) {
        int slash = name.indexOf('/');
        String prefix = slash < 0 ? "" : name.substring(0, slash);
        boolean validPrefix = slash < 0 || DNS_SUBDOMAIN.matches(prefix);
        return validPrefix && NAME_PART.matcher(name.substring(slash + 1)).matches();
    }

    /** All of an object's annotations, keys and values, in bytes: the API server's limit. */
    public static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

    /** Annotations whose keys and values together stay within what the API server stores. */
    public static void requireAnnotationsSize(String key, java.util.Map<String, ?> annotations) {
        long size = 0;
        for (java.util.Map.Entry<String, ?> entry : annotations.entrySet()) {
            size += entry.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                    + String.valueOf(entry.getValue()).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        long total = size;
        ConfigException.require(
                total <= MAX_ANNOTATIONS_BYTES,
                () -> key + " holds " + total + " bytes of keys and values; Kubernetes allows at most "
                        + MAX_ANNOTATIONS_BYTES + " for an object's annotations");
    }

    public static String requireLabelValue(String key, String value) {
        return LABEL_VALUE.require(key, value);
    }

    static String requireTaintEffect(String key, String effect) {
        return ConfigException.require(
                TAINT_EFFECTS.contains(effect), key, "must be one of " + String.join(", ", TAINT_EFFECTS), effect);
    }

    /** A quantity greater than zero (a limit of 0 would let the pool launch nothing; negative ones are refused). */
    static String requirePositiveQuantity(String key, String value, String example) {
        Matcher m = QUANTITY.matcher(value);
        boolean positive = m.matches()
                && !m.group(1).equals("-")
                && new BigDecimal(
                                        m.group(2).startsWith(".")
                                                ? "0" + m.group(2)
                                                : m.group(2).endsWith(".") ? m.group(2) + "0" : m.group(2))
                                .signum()
                        > 0;
        return ConfigException.require(
                positive, key, "must be a Kubernetes quantity greater than zero such as " + example, value);
    }

    /** A duration in h, m and s, or "Never"; {@code zero} says whether "0s" makes sense for the setting. */
    static String requireDuration(String key, String value, boolean zero) {
        boolean valid = DURATION.matcher(value).matches()
                && (zero
                        || DURATION_PART
                                .matcher(value)
                                .results()
                                .anyMatch(part -> new BigDecimal(part.group(1)).signum() > 0));
        return ConfigException.require(
                valid || value.equals("Never"),
                key,
                "must be a duration" + (zero ? "" : " greater than zero")
                        + " in h, m and s (e.g. \"720h\", \"1h30m\") or \"Never\"",
                value);
    }
}
