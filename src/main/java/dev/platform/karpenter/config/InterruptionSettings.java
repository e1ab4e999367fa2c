package dev.platform.karpenter.config;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Interruption queue settings.
 *
 * @param queueName  queue_name: the SQS queue Karpenter drains (default: the cluster name)
 * @param kmsKeyId   queue_kms_key_id: a customer managed KMS key for the queue; default SQS-managed encryption
 */
public record InterruptionSettings(String queueName, Optional<String> kmsKeyId) {
    private static final Pattern QUEUE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,80}");

    static InterruptionSettings from(Settings settings, String clusterName) {
        String queueName = settings.string("queue_name", clusterName);
        if (!QUEUE_NAME.matcher(queueName).matches()) {
            throw new ConfigException("queue_name must be 1 to 80 letters, digits, '-' or '_', got "
                    + ConfigException.quote(queueName) + "");
        }
        Optional<String> kmsKeyId = settings.optionalString("queue_kms_key_id");
        kmsKeyId.ifPresent(key -> {
            if (key.isBlank()) {
                throw new ConfigException("queue_kms_key_id must name a KMS key (id, ARN, alias or alias ARN); "
                        + "leave it out for SQS-managed encryption");
            }
            AwsRules.requireKmsKey("queue_kms_key_id", key);
            // The AWS managed key can be written as an alias or as an alias ARN.
            if (key.equals("alias/aws/sqs") || key.endsWith(":alias/aws/sqs")) {
                throw new ConfigException(
                        "queue_kms_key_id must be a customer managed key: EventBridge cannot write to a "
                                + "queue encrypted with the AWS managed key alias/aws/sqs");
            }
        });
        return new InterruptionSettings(queueName, kmsKeyId);
    }
}
