package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.STATE_BUCKET;
import static dev.platform.karpenter.config.SettingsCatalogue.STATE_KEY_PREFIX;
import static dev.platform.karpenter.config.SettingsCatalogue.STATE_REGION;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where Terraform keeps each stack's state.
 *
 * @param bucket     state_bucket: an S3 bucket; empty means local state files next to the project
 * @param region     state_region: the bucket's region (default: the cluster's region)
 * @param keyPrefix  state_key_prefix: prefix of every state object key (default "karpenter")
 */
public record StateBackendSettings(Optional<String> bucket, String region, String keyPrefix) {
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    static StateBackendSettings from(SettingsReader settings, String clusterRegion) {
        Optional<String> bucket = settings.optional(STATE_BUCKET).filter(b -> !b.isBlank());
        bucket.ifPresent(b -> ConfigException.requireMatch(
                BUCKET,
                "state_bucket",
                "must be an S3 bucket name (3 to 63 lowercase letters, digits, '.' or '-')",
                b));
        String region = settings.optional(STATE_REGION).orElse(clusterRegion);
        Regions.requireValid(STATE_REGION.key(), region);
        String prefix = settings.get(STATE_KEY_PREFIX);
        AwsRules.requireKeyPrefix("state_key_prefix", prefix);
        return new StateBackendSettings(bucket, region, prefix);
    }

    public boolean isRemote() {
        return bucket.isPresent();
    }
}
