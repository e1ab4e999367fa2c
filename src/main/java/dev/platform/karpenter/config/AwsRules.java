package dev.platform.karpenter.config;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * AWS's limits on what the settings become, checked at synth so that they fail here with one line rather than
 * half-way through an apply: tags, node group names, KMS key references, S3 keys.
 */
public final class AwsRules {
    /** Tags per resource AWS allows. */
    public static final int MAX_TAGS = 50;

    public static final int MAX_TAG_KEY = 128;
    public static final int MAX_TAG_VALUE = 256;
    /** Letters, digits and spaces in any script, and _ . : / = + - @ (the characters every AWS service accepts). */
    private static final Pattern TAG_TEXT = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

    private static final TextRule NODE_GROUP = TextRule.of(
            "[0-9A-Za-z][A-Za-z0-9_-]{0,62}",
            "must be an EKS node group name (1 to 63 letters, digits, '-' or '_', starting with a letter or digit)");
    private static final TextRule KMS_KEY = TextRule.of(
            "(mrk-)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|mrk-[0-9a-f]{32}"
                    + "|alias/[A-Za-z0-9/_-]{1,250}"
                    + "|arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:(key/[A-Za-z0-9-]{1,64}|alias/[A-Za-z0-9/_-]{1,250})",
            "must name a KMS key: a key id, key ARN, alias/NAME or alias ARN");
    /** S3 key characters that need no encoding, without empty segments. */
    private static final TextRule KEY_PREFIX = TextRule.of(
            "[A-Za-z0-9!_.*'()-]+(/[A-Za-z0-9!_.*'()-]+)*",
            512,
            "must be an S3 key prefix of letters, digits and ! _ . * ' ( ) - in segments joined by '/', without a "
                    + "leading or trailing '/'");

    private AwsRules() {}

    static Map<String, String> requireTags(String key, Map<String, String> tags) {
        ConfigException.require(
                tags.size() <= MAX_TAGS,
                () -> key + " holds " + tags.size() + " tags; AWS allows at most " + MAX_TAGS + " per resource");
        tags.forEach((tagKey, value) -> {
            requireTagKey(key + " keys", tagKey);
            requireTagValue(key + "." + tagKey, value);
        });
        return tags;
    }

    static String requireTagKey(String key, String tagKey) {
        boolean valid = !tagKey.isEmpty()
                && tagKey.length() <= MAX_TAG_KEY
                && TAG_TEXT.matcher(tagKey).matches()
                && !tagKey.regionMatches(true, 0, "aws:", 0, 4);
        return ConfigException.require(
                valid,
                key,
                "must be 1 to " + MAX_TAG_KEY + " letters, digits, spaces or "
                        + "_ . : / = + - @, not starting with \"aws:\" (an AWS tag key)",
                tagKey);
    }

    static String requireTagValue(String key, String value) {
        return ConfigException.requireMatch(
                TAG_TEXT,
                MAX_TAG_VALUE,
                key,
                "must be an AWS tag value (at most " + MAX_TAG_VALUE + " letters, digits, spaces or _ . : / = + - @)",
                value);
    }

    /**
     * A tag of what Karpenter launches (a node class's tags): EC2 takes any characters, but keys of 1 to 128 and
     * values of at most 256, and no key starting with "aws:" in any case.
     */
    public static void requireEc2Tag(String key, String tagKey, String value) {
        boolean validKey = !tagKey.isEmpty()
                && tagKey.codePointCount(0, tagKey.length()) <= MAX_TAG_KEY
                && !tagKey.regionMatches(true, 0, "aws:", 0, 4);
        ConfigException.require(
                validKey,
                key + " keys",
                "must be EC2 tag keys of 1 to " + MAX_TAG_KEY + " characters, not starting with \"aws:\"",
                tagKey);
        ConfigException.require(
                value.codePointCount(0, value.length()) <= MAX_TAG_VALUE,
                key + "." + tagKey,
                "must be an EC2 tag value of at most " + MAX_TAG_VALUE + " characters",
                value);
    }

    static String requireNodeGroupName(String key, String value) {
        return NODE_GROUP.require(key, value);
    }

    static String requireKmsKey(String key, String value) {
        return KMS_KEY.require(key, value);
    }

    static String requireKeyPrefix(String key, String value) {
        return KEY_PREFIX.require(key, value);
    }
}
