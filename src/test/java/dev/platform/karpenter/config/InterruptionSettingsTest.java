package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.TestConfigs;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InterruptionSettingsTest {

    @Test
    void defaultsToAQueueNamedAfterTheClusterWithSqsManagedEncryption() {
        InterruptionSettings settings = config(V1).interruption();

        assertThat(settings.queueName()).isEqualTo("demo");
        assertThat(settings.kmsKeyId()).isEmpty();
        assertThat(config(V1).names().queue()).isEqualTo("demo");
    }

    @Test
    void acceptsACustomQueueNameAndCustomerKey() {
        InterruptionSettings settings = config(
                        V1,
                        "queue_name = \"karpenter_demo-1\"",
                        "queue_kms_key_id = \"arn:aws:kms:us-west-2:111122223333:alias/karpenter\"")
                .interruption();

        assertThat(settings.queueName()).isEqualTo("karpenter_demo-1");
        assertThat(settings.kmsKeyId()).contains("arn:aws:kms:us-west-2:111122223333:alias/karpenter");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    void rejectsBadInputWithOneLineNamingTheKey(String description, String line, String message) {
        assertThatThrownBy(() -> TestConfigs.parse(tfvars(V1, line)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(message)
                .hasMessageNotContaining("\n");
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(
                        "queue name with a dot",
                        "queue_name = \"demo.fifo\"",
                        "queue_name must be 1 to 80 letters, digits, '-' or '_', got \"demo.fifo\""),
                Arguments.of(
                        "queue name of 81 characters",
                        "queue_name = \"" + "q".repeat(81) + "\"",
                        "queue_name must be 1 to 80 letters"),
                Arguments.of("empty queue name", "queue_name = \"\"", "queue_name must be 1 to 80 letters"),
                Arguments.of("queue name not a string", "queue_name = 5", "queue_name must be a string"),
                Arguments.of("empty key", "queue_kms_key_id = \"\"", "queue_kms_key_id must name a KMS key"),
                Arguments.of(
                        "AWS managed key alias",
                        "queue_kms_key_id = \"alias/aws/sqs\"",
                        "queue_kms_key_id must be a customer managed key"),
                Arguments.of(
                        "AWS managed key alias ARN",
                        "queue_kms_key_id = \"arn:aws:kms:us-west-2:111122223333:alias/aws/sqs\"",
                        "queue_kms_key_id must be a customer managed key"));
    }
}
