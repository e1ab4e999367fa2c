package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.QUEUE_KMS_KEY_ID;
import static dev.platform.karpenter.config.SettingsCatalogue.QUEUE_NAME;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Interruption queue settings.
 *
 * @param queueName  queue_name: the SQS queue Karpenter drains (default: the cluster name)
 * @param kmsKeyId   queue_kms_key_id: a customer managed KMS key for the queue; default SQS-managed encryption
 * @param alarms     alarms: the CloudWatch alarms on the queue and its rules
 */
public record InterruptionSettings(String queueName, Optional<String> kmsKeyId, AlarmSettings alarms) {
    private static final Pattern SQS_QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,80}");

    static InterruptionSettings from(SettingsReader settings, String clusterName, String region) {
        String queueName = settings.optional(QUEUE_NAME).orElse(clusterName);
        ConfigException.requireMatch(
                SQS_QUEUE_NAME, QUEUE_NAME.key(), "must be 1 to 80 letters, digits, '-' or '_'", queueName);
        Optional<String> kmsKeyId = settings.optional(QUEUE_KMS_KEY_ID);
        kmsKeyId.ifPresent(key -> {
            ConfigException.require(
                    !key.isBlank(),
                    () -> "queue_kms_key_id must name a KMS key (id, ARN, alias or alias ARN); "
                            + "leave it out for SQS-managed encryption");
            AwsRules.requireKmsKey("queue_kms_key_id", key);
            // The AWS managed key can be written as an alias or as an alias ARN.
            ConfigException.require(
                    !key.equals("alias/aws/sqs") && !key.endsWith(":alias/aws/sqs"),
                    () -> "queue_kms_key_id must be a customer managed key: EventBridge cannot write to a "
                            + "queue encrypted with the AWS managed key alias/aws/sqs");
        });
        return new InterruptionSettings(queueName, kmsKeyId, AlarmSettings.from(settings, region));
    }
}
