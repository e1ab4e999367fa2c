package dev.platform.karpenter.config;

import static dev.platform.karpenter.testing.TestConfigs.V1;
import static dev.platform.karpenter.testing.TestConfigs.config;
import static dev.platform.karpenter.testing.TestConfigs.tfvars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.TestConfigs;
import java.util.Collections;
import java.util.List;
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
                        "queue_kms_key_id must be a customer managed key"),
                Arguments.of(
                        "unknown alarms key",
                        "alarms = { threshold = 5 }",
                        "alarms.threshold is not allowed; alarms takes enabled, queue_age_seconds,"),
                Arguments.of(
                        "queue age the queue never reaches",
                        "alarms = { queue_age_seconds = 300 }",
                        "alarms.queue_age_seconds must be from 60 to 270 (the queue keeps messages 300 seconds),"
                                + " got 300"),
                Arguments.of(
                        "queue age a healthy controller reaches",
                        "alarms = { queue_age_seconds = 20 }",
                        "alarms.queue_age_seconds must be from 60 to 270"),
                Arguments.of(
                        "no evaluation period",
                        "alarms = { evaluation_periods = 0 }",
                        "alarms.evaluation_periods must be from 1 to 1440"),
                Arguments.of(
                        "enabled not a bool", "alarms = { enabled = \"yes\" }", "alarms.enabled must be true or false"),
                Arguments.of(
                        "an action that is no ARN",
                        "alarms = { alarm_actions = [\"karpenter-alerts\"] }",
                        "alarms.alarm_actions must list action ARNs"),
                Arguments.of(
                        "an S3 bucket as an action",
                        "alarms = { ok_actions = [\"arn:aws:s3:::bucket\"] }",
                        "alarms.ok_actions must list action ARNs"),
                Arguments.of(
                        "an action in another partition",
                        "alarms = { alarm_actions = [\"arn:aws-cn:sns:cn-north-1:123456789012:alerts\"] }",
                        "alarms.alarm_actions is an ARN of partition \"aws-cn\", but region us-west-2"),
                Arguments.of(
                        "six actions",
                        "alarms = { alarm_actions = [" + String.join(", ", Collections.nCopies(6, "\"a\"")) + "] }",
                        "alarms.alarm_actions names 6 actions; CloudWatch takes at most 5"),
                Arguments.of(
                        "an action twice",
                        "alarms = { alarm_actions = [\"" + TOPIC + "\", \"" + TOPIC + "\"] }",
                        "alarms.alarm_actions names an action twice"));
    }

    private static final String TOPIC = "arn:aws:sns:us-west-2:111122223333:karpenter-alerts";

    @Test
    void alarmsAreOnByDefaultWithoutActions() {
        AlarmSettings alarms = config(V1).interruption().alarms();

        assertThat(alarms).isEqualTo(AlarmSettings.DEFAULT);
        assertThat(alarms.enabled()).isTrue();
        assertThat(alarms.queueAgeSeconds()).isEqualTo(120);
        assertThat(alarms.evaluationPeriods()).isEqualTo(3);
        assertThat(alarms.alarmActions()).isEmpty();
    }

    @Test
    void alarmsTakeThresholdsAndActions() {
        AlarmSettings alarms = config(
                        V1,
                        "alarms = { queue_age_seconds = 90, evaluation_periods = 5, alarm_actions = [\"" + TOPIC
                                + "\", \"arn:aws:lambda:us-west-2:111122223333:function:page\"], ok_actions = [\""
                                + TOPIC + "\"] }")
                .interruption()
                .alarms();

        assertThat(alarms)
                .isEqualTo(new AlarmSettings(
                        true,
                        90,
                        5,
                        List.of(TOPIC, "arn:aws:lambda:us-west-2:111122223333:function:page"),
                        List.of(TOPIC)));
    }

    @Test
    void alarmsCanBeTurnedOff() {
        assertThat(config(V1, "alarms = { enabled = false }")
                        .interruption()
                        .alarms()
                        .enabled())
                .isFalse();
    }
}
