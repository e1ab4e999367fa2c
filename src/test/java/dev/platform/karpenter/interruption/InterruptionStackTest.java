package dev.platform.karpenter.interruption;

import static dev.platform.karpenter.testing.Synthesized.dataSources;
import static dev.platform.karpenter.testing.Synthesized.onlyId;
import static dev.platform.karpenter.testing.Synthesized.onlyResource;
import static dev.platform.karpenter.testing.Synthesized.output;
import static dev.platform.karpenter.testing.Synthesized.resources;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.AppConfig;
import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import com.hashicorp.cdktf.Token;
import dev.platform.karpenter.config.ResourceNames;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class InterruptionStackTest {
    private static final String KEY_ARN = "arn:aws:kms:us-west-2:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    private static final String LONGEST_CLUSTER = "c".repeat(50);
    private static final String TOPIC = "arn:aws:sns:us-west-2:111122223333:karpenter-alerts";

    /** One app with a cluster per case: synthesis is the slow part. */
    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster("v030", "v0.30.0", "tags = { Team = \"platform\" }")
            .cluster("v19", "1.9.0")
            .cluster("v110", "1.10.0")
            .cluster(
                    "kms",
                    TestConfigs.V1,
                    "queue_name = \"karpenter-kms\"",
                    "queue_kms_key_id = \"" + KEY_ARN + "\"",
                    "alarms = { queue_age_seconds = 90, evaluation_periods = 5, alarm_actions = [\"" + TOPIC
                            + "\"], ok_actions = [\"" + TOPIC + "\"] }")
            .cluster("quiet", TestConfigs.V1, "alarms = { enabled = false }")
            .cluster(LONGEST_CLUSTER, TestConfigs.V1)
            .cluster(TestConfigs.configFor("china", "cn-north-1", TestConfigs.V1))
            .synthesize();

    /** The detail-types of the events the rules match, as upstream's template names them. */
    private static final String HEALTH = "AWS Health Event";

    private static final String SPOT = "EC2 Spot Instance Interruption Warning";
    private static final String REBALANCE = "EC2 Instance Rebalance Recommendation";
    private static final String STATE_CHANGE = "EC2 Instance State-change Notification";
    private static final String CAPACITY_RESERVATION = "EC2 Capacity Reservation Instance Interruption Warning";

    private static JsonNode stack(String cluster) {
        return APP.stack(cluster + "-interruption");
    }

    @Test
    void queueIsNamedAfterTheClusterKeepsMessagesFiveMinutesAndUsesSqsManagedEncryption() {
        JsonNode queue = onlyResource(stack("v030"), "aws_sqs_queue");

        assertThat(queue.path("name").asText()).isEqualTo("v030");
        assertThat(queue.path("message_retention_seconds").asInt()).isEqualTo(300);
        assertThat(queue.path("sqs_managed_sse_enabled").isBoolean()).isTrue();
        assertThat(queue.path("sqs_managed_sse_enabled").asBoolean()).isTrue();
        assertThat(queue.has("kms_master_key_id")).isFalse();
    }

    @Test
    void customerKeyReplacesSqsManagedEncryptionAndQueueNameIsOverridable() {
        JsonNode queue = onlyResource(stack("kms"), "aws_sqs_queue");

        assertThat(queue.path("name").asText()).isEqualTo("karpenter-kms");
        assertThat(queue.path("message_retention_seconds").asInt()).isEqualTo(300);
        assertThat(queue.path("kms_master_key_id").asText()).isEqualTo(KEY_ARN);
        // The SQS API rejects both at once.
        assertThat(queue.has("sqs_managed_sse_enabled")).isFalse();
    }

    @Test
    void queuePolicyIsUpstreamsInterruptionPolicyOnTheQueue() {
        JsonNode stack = stack("v030");
        JsonNode policy = onlyResource(stack, "aws_sqs_queue_policy");

        assertThat(policy.path("queue_url").asText()).isEqualTo(ref("aws_sqs_queue", queueId(stack), "url"));
        assertThat(policyDocument(stack).path("Version").asText()).isEqualTo("2012-10-17");
        assertThat(policyDocument(stack).path("Id").asText()).isEqualTo("EC2InterruptionPolicy");
        assertThat(policyDocument(stack).path("Statement")).hasSize(2);
    }

    /** China's EventBridge and SQS keep their global names: SQS refuses events.amazonaws.com.cn in a policy. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({"v030, amazonaws.com", "china, amazonaws.com"})
    void queuePolicyLetsEventBridgeAndSqsSendInThePartitionOfTheRegion(String cluster, String dnsSuffix) {
        JsonNode stack = stack(cluster);

        JsonNode allow = policyDocument(stack).path("Statement").get(0);

        assertThat(allow).isEqualTo(Json.parse("""
                {
                  "Effect": "Allow",
                  "Principal": {"Service": ["events.%1$s", "sqs.%1$s"]},
                  "Action": ["sqs:SendMessage"],
                  "Resource": ["%2$s"]
                }
                """.formatted(dnsSuffix, ref("aws_sqs_queue", queueId(stack), "arn"))));
    }

    @Test
    void queuePolicyDeniesEveryRequestWithoutTls() {
        JsonNode stack = stack("v030");

        JsonNode deny = policyDocument(stack).path("Statement").get(1);

        assertThat(deny).isEqualTo(Json.parse("""
                {
                  "Sid": "DenyHTTP",
                  "Effect": "Deny",
                  "Principal": "*",
                  "Action": ["sqs:*"],
                  "Resource": ["%s"],
                  "Condition": {"Bool": {"aws:SecureTransport": ["false"]}}
                }
                """.formatted(ref("aws_sqs_queue", queueId(stack), "arn"))));
    }

    static Stream<Arguments> rulesPerRelease() {
        List<String> before110 = List.of(HEALTH, SPOT, REBALANCE, STATE_CHANGE);
        List<String> from110 = List.of(HEALTH, SPOT, REBALANCE, STATE_CHANGE, CAPACITY_RESERVATION);
        return Stream.of(
                Arguments.of("v030", before110),
                Arguments.of("v19", before110),
                Arguments.of("v110", from110),
                Arguments.of("kms", from110));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rulesPerRelease")
    void oneRulePerHandledEventMatchingExactlyItsSourceAndDetailType(String cluster, List<String> detailTypes) {
        Map<String, JsonNode> patternsByName = new LinkedHashMap<>();
        resources(stack(cluster), "aws_cloudwatch_event_rule")
                .forEach(rule -> patternsByName.put(
                        rule.path("name").asText(),
                        Json.parse(rule.path("event_pattern").asText())));

        assertThat(resources(stack(cluster), "aws_cloudwatch_event_rule")).hasSize(detailTypes.size());
        Map<String, JsonNode> expected = new LinkedHashMap<>();
        expected.put(cluster + "-Health", pattern("aws.health", HEALTH));
        expected.put(cluster + "-SpotInterrupt", pattern("aws.ec2", SPOT));
        expected.put(cluster + "-Rebalance", pattern("aws.ec2", REBALANCE));
        expected.put(cluster + "-StateChange", pattern("aws.ec2", STATE_CHANGE));
        expected.put(cluster + "-CapacityResv", pattern("aws.ec2", CAPACITY_RESERVATION));
        expected.values()
                .removeIf(
                        p -> !detailTypes.contains(p.path("detail-type").get(0).asText()));
        assertThat(patternsByName).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rulesPerRelease")
    void everyRuleHasExactlyOneTargetTheQueue(String cluster, List<String> detailTypes) {
        JsonNode stack = stack(cluster);
        List<String> ruleRefs = new ArrayList<>();
        resources(stack, "aws_cloudwatch_event_rule")
                .fieldNames()
                .forEachRemaining(id -> ruleRefs.add(ref("aws_cloudwatch_event_rule", id, "name")));
        List<String> targetedRules = new ArrayList<>();
        resources(stack, "aws_cloudwatch_event_target").forEach(target -> {
            assertThat(target.path("target_id").asText()).isEqualTo("KarpenterInterruptionQueueTarget");
            assertThat(target.path("arn").asText()).isEqualTo(ref("aws_sqs_queue", queueId(stack), "arn"));
            targetedRules.add(target.path("rule").asText());
        });

        assertThat(targetedRules).hasSize(detailTypes.size()).containsExactlyInAnyOrderElementsOf(ruleRefs);
    }

    @Test
    void ruleNamesFitEventBridgeLimitForTheLongestValidClusterName() {
        List<String> names = new ArrayList<>();
        resources(stack(LONGEST_CLUSTER), "aws_cloudwatch_event_rule")
                .forEach(rule -> names.add(rule.path("name").asText()));

        assertThat(names)
                .hasSize(5)
                .allSatisfy(name -> assertThat(name)
                        .startsWith(LONGEST_CLUSTER + "-")
                        .hasSizeLessThanOrEqualTo(ResourceNames.EVENT_RULE_NAME_MAX));
        assertThat(names).contains(LONGEST_CLUSTER + "-SpotInterrupt"); // the longest suffix, exactly 64
    }

    @Test
    void queueAgeAlarmWatchesTheOldestMessageOfTheQueueByDefault() {
        JsonNode stack = stack("v030");
        JsonNode alarm = alarm(stack, "v030-InterruptionQueueAge");

        assertThat(alarm.path("namespace").asText()).isEqualTo("AWS/SQS");
        assertThat(alarm.path("metric_name").asText()).isEqualTo("ApproximateAgeOfOldestMessage");
        assertThat(alarm.path("dimensions"))
                .isEqualTo(Json.tree(Map.of("QueueName", ref("aws_sqs_queue", queueId(stack), "name"))));
        assertThat(alarm.path("statistic").asText()).isEqualTo("Maximum");
        assertThat(alarm.path("period").asInt()).isEqualTo(60);
        assertThat(alarm.path("comparison_operator").asText()).isEqualTo("GreaterThanThreshold");
        assertThat(alarm.path("threshold").asInt()).isEqualTo(120);
        assertThat(alarm.path("evaluation_periods").asInt()).isEqualTo(3);
        assertThat(alarm.path("treat_missing_data").asText()).isEqualTo("notBreaching");
        assertThat(alarm.has("alarm_actions"))
                .as("no actions unless configured")
                .isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rulesPerRelease")
    void ruleFailuresAlarmSumsTheFailedInvocationsOfEveryRule(String cluster, List<String> detailTypes) {
        JsonNode stack = stack(cluster);
        JsonNode alarm = alarm(stack, cluster + "-InterruptionRuleFailures");
        List<String> ruleRefs = new ArrayList<>();
        resources(stack, "aws_cloudwatch_event_rule")
                .fieldNames()
                .forEachRemaining(id -> ruleRefs.add(ref("aws_cloudwatch_event_rule", id, "name")));

        List<String> watchedRules = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        String expression = null;
        for (JsonNode query : alarm.path("metric_query")) {
            if (query.has("expression")) {
                expression = query.path("expression").asText();
                assertThat(query.path("return_data").asBoolean()).isTrue();
                continue;
            }
            ids.add(query.path("id").asText());
            assertThat(query.path("return_data").asBoolean()).isFalse();
            assertThat(query.at("/metric/namespace").asText()).isEqualTo("AWS/Events");
            assertThat(query.at("/metric/metric_name").asText()).isEqualTo("FailedInvocations");
            assertThat(query.at("/metric/stat").asText()).isEqualTo("Sum");
            assertThat(query.at("/metric/period").asInt()).isEqualTo(300);
            watchedRules.add(query.at("/metric/dimensions/RuleName").asText());
        }

        assertThat(watchedRules).hasSize(detailTypes.size()).containsExactlyInAnyOrderElementsOf(ruleRefs);
        assertThat(expression).isEqualTo("SUM([" + String.join(",", ids) + "])");
        assertThat(alarm.path("comparison_operator").asText()).isEqualTo("GreaterThanOrEqualToThreshold");
        assertThat(alarm.path("threshold").asInt()).isEqualTo(1);
        assertThat(alarm.path("evaluation_periods").asInt()).isEqualTo(1);
    }

    @Test
    void alarmsTakeTheConfiguredThresholdAndActions() {
        JsonNode stack = stack("kms");
        JsonNode queueAge = alarm(stack, "kms-InterruptionQueueAge");
        JsonNode ruleFailures = alarm(stack, "kms-InterruptionRuleFailures");

        assertThat(queueAge.path("threshold").asInt()).isEqualTo(90);
        assertThat(queueAge.path("evaluation_periods").asInt()).isEqualTo(5);
        for (JsonNode alarm : List.of(queueAge, ruleFailures)) {
            assertThat(alarm.path("alarm_actions")).isEqualTo(Json.tree(List.of(TOPIC)));
            assertThat(alarm.path("ok_actions")).isEqualTo(Json.tree(List.of(TOPIC)));
        }
    }

    @Test
    void alarmsOffMakesNoAlarm() {
        assertThat(resources(stack("quiet"), "aws_cloudwatch_metric_alarm")).isEmpty();
        assertThat(resources(stack("quiet"), "aws_sqs_queue")).hasSize(1);
    }

    @Test
    void alarmNamesFitCloudWatchLimitForTheLongestValidClusterName() {
        List<String> names = new ArrayList<>();
        resources(stack(LONGEST_CLUSTER), "aws_cloudwatch_metric_alarm")
                .forEach(alarm -> names.add(alarm.path("alarm_name").asText()));

        assertThat(names)
                .containsExactlyInAnyOrder(
                        LONGEST_CLUSTER + "-InterruptionQueueAge", LONGEST_CLUSTER + "-InterruptionRuleFailures")
                .allSatisfy(name -> assertThat(name).hasSizeLessThanOrEqualTo(ResourceNames.ALARM_NAME_MAX));
    }

    @Test
    void outputsTheQueueNameAndArn() {
        JsonNode stack = stack("v030");
        String queue = queueId(stack);

        assertThat(output(stack, "karpenter_sqs_queue_name")).isEqualTo(ref("aws_sqs_queue", queue, "name"));
        assertThat(output(stack, "karpenter_sqs_queue_arn")).isEqualTo(ref("aws_sqs_queue", queue, "arn"));
    }

    @Test
    void configuredTagsReachTheQueueAndRulesThroughTheProviderDefaultTags() {
        JsonNode provider = stack("v030").path("provider").path("aws").get(0);

        assertThat(provider.path("region").asText()).isEqualTo("us-west-2");
        assertThat(provider.at("/default_tags/0/tags")).isEqualTo(Json.tree(Map.of("Team", "platform")));
    }

    @Test
    void accessorsAreCrossStackReferencesToTheQueue(@TempDir Path outdir) {
        App app = new App(AppConfig.builder().outdir(outdir.toString()).build());
        InterruptionStack interruption = new InterruptionStack(app, TestConfigs.config(TestConfigs.V1));
        TerraformStack consumer = new TerraformStack(app, "consumer");
        new TerraformOutput(
                consumer,
                "queue_name",
                TerraformOutputConfig.builder().value(interruption.queueName()).build());
        new TerraformOutput(
                consumer,
                "queue_arn",
                TerraformOutputConfig.builder().value(interruption.queueArn()).build());
        app.synth();

        assertThat(Token.isUnresolved(interruption.queueName())).isTrue();
        assertThat(Token.isUnresolved(interruption.queueArn())).isTrue();
        JsonNode producer = readStack(outdir, "demo-interruption");
        JsonNode consumed = readStack(outdir, "consumer");
        String queue = queueId(producer);
        String remoteState = onlyId(dataSources(consumed, "terraform_remote_state"));
        String remoteOutputs = "${data.terraform_remote_state." + remoteState + ".outputs.";
        for (String attribute : List.of("name", "arn")) {
            String consumedValue =
                    consumed.at("/output/queue_" + attribute + "/value").asText();
            assertThat(consumedValue).startsWith(remoteOutputs).endsWith("}");
            String producerOutput = consumedValue.substring(remoteOutputs.length(), consumedValue.length() - 1);
            assertThat(producer.path("output")
                            .path(producerOutput)
                            .path("value")
                            .asText())
                    .isEqualTo(ref("aws_sqs_queue", queue, attribute));
        }
    }

    private static JsonNode readStack(Path outdir, String name) {
        return Json.read(outdir.resolve("stacks").resolve(name).resolve("cdk.tf.json"));
    }

    private static JsonNode pattern(String source, String detailType) {
        return Json.tree(Map.of("source", List.of(source), "detail-type", List.of(detailType)));
    }

    /** The queue's policy as IAM reads it (JSON, with Terraform interpolations in its strings). */
    private static JsonNode policyDocument(JsonNode stack) {
        return Json.parse(
                onlyResource(stack, "aws_sqs_queue_policy").path("policy").asText());
    }

    private static JsonNode alarm(JsonNode stack, String name) {
        List<JsonNode> named = new ArrayList<>();
        resources(stack, "aws_cloudwatch_metric_alarm").forEach(alarm -> {
            if (alarm.path("alarm_name").asText().equals(name)) {
                named.add(alarm);
            }
        });
        assertThat(named).as("alarms named " + name).hasSize(1);
        return named.get(0);
    }

    private static String queueId(JsonNode stack) {
        return onlyId(resources(stack, "aws_sqs_queue"));
    }

    private static String ref(String type, String id, String attribute) {
        return "${" + type + "." + id + "." + attribute + "}";
    }
}
