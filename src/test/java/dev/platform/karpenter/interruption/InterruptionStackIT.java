package dev.platform.karpenter.interruption;

import static dev.platform.karpenter.testing.Json.texts;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The interruption stack applied to moto once: what AWS ends up holding, a clean re-plan, and a clean destroy. */
@IntegrationTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InterruptionStackIT {
    private static final ObjectMapper JSON = Json.mapper();
    private static final String CLUSTER = "it-interruption";
    private static final List<String> RULE_NAMES = List.of(
            CLUSTER + "-Health",
            CLUSTER + "-SpotInterrupt",
            CLUSTER + "-Rebalance",
            CLUSTER + "-StateChange",
            CLUSTER + "-CapacityResv");

    private static final String TOPIC = "arn:aws:sns:" + MotoServer.REGION + ":123456789012:karpenter-alerts";
    private static final List<String> ALARM_NAMES =
            List.of(CLUSTER + "-InterruptionQueueAge", CLUSTER + "-InterruptionRuleFailures");

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    private static MotoServer moto;
    private static TerraformRunner terraform;
    private static String queueUrl;
    private static Map<String, String> queueAttributes;

    @BeforeAll
    static void applyTheStack() {
        moto = MOTO.server();
        // The stack reads the cluster (its version guards stop a plan before anything is applied), so it must exist.
        moto.createEksCluster(CLUSTER, "1.34");
        Synthesized synthesized =
                Synthesized.of(TestConfigs.parse("""
                cluster_name = "%1$s"
                region = "%2$s"
                karpenter_chart_version = "%3$s"
                tags = { Team = "platform" }
                alarms = { queue_age_seconds = 90, alarm_actions = ["%4$s"], ok_actions = ["%4$s"] }
                """.formatted(CLUSTER, MotoServer.REGION, TestConfigs.V1, TOPIC)));
        terraform = new TerraformRunner(synthesized.stackDir(CLUSTER + "-interruption"), moto);
        terraform.init();
        timed("apply", () -> {
            terraform.apply();
            return null;
        });
        List<String> queueUrls = moto.listQueueUrls();
        assertThat(queueUrls).hasSize(1);
        queueUrl = queueUrls.get(0);
        queueAttributes = moto.queueAttributes(queueUrl);
    }

    @Test
    @Order(1)
    void queueKeepsMessagesFiveMinutesWithSqsManagedEncryption() {
        assertThat(queueUrl).endsWith("/" + CLUSTER);
        assertThat(queueAttributes)
                .containsEntry("MessageRetentionPeriod", "300")
                .containsEntry("SqsManagedSseEnabled", "true");
    }

    @Test
    @Order(1)
    void queuePolicyLetsEventBridgeSendAndDeniesPlainHttp() throws Exception {
        JsonNode policy = JSON.readTree(queueAttributes.get("Policy"));
        String queueArn = queueAttributes.get("QueueArn");

        assertThat(policy.path("Id").asText()).isEqualTo("EC2InterruptionPolicy");
        assertThat(policy.path("Statement")).hasSize(2);
        JsonNode allow = policy.path("Statement").get(0);
        assertThat(allow.path("Effect").asText()).isEqualTo("Allow");
        assertThat(texts(allow.at("/Principal/Service")))
                .containsExactlyInAnyOrder("events.amazonaws.com", "sqs.amazonaws.com");
        assertThat(texts(allow.path("Action"))).containsExactly("sqs:SendMessage");
        assertThat(texts(allow.path("Resource"))).containsExactly(queueArn);
        JsonNode deny = policy.path("Statement").get(1);
        assertThat(deny.path("Sid").asText()).isEqualTo("DenyHTTP");
        assertThat(deny.path("Effect").asText()).isEqualTo("Deny");
        assertThat(deny.path("Principal").asText()).isEqualTo("*");
        assertThat(texts(deny.path("Action"))).containsExactly("sqs:*");
        assertThat(texts(deny.path("Resource"))).containsExactly(queueArn);
        assertThat(texts(deny.at("/Condition/Bool/aws:SecureTransport"))).containsExactly("false");
    }

    @Test
    @Order(1)
    void everyRuleMatchesItsEventAndTargetsTheQueue() throws Exception {
        assertThat(moto.listRuleNames()).containsExactlyInAnyOrderElementsOf(RULE_NAMES);
        assertThat(eventPattern(CLUSTER + "-Health")).isEqualTo(pattern("aws.health", "AWS Health Event"));
        assertThat(eventPattern(CLUSTER + "-SpotInterrupt"))
                .isEqualTo(pattern("aws.ec2", "EC2 Spot Instance Interruption Warning"));
        assertThat(eventPattern(CLUSTER + "-Rebalance"))
                .isEqualTo(pattern("aws.ec2", "EC2 Instance Rebalance Recommendation"));
        assertThat(eventPattern(CLUSTER + "-StateChange"))
                .isEqualTo(pattern("aws.ec2", "EC2 Instance State-change Notification"));
        assertThat(eventPattern(CLUSTER + "-CapacityResv"))
                .isEqualTo(pattern("aws.ec2", "EC2 Capacity Reservation Instance Interruption Warning"));
        for (String rule : RULE_NAMES) {
            JsonNode targets = moto.listTargetsByRule(rule);
            assertThat(targets).as(rule).hasSize(1);
            assertThat(targets.get(0).path("Id").asText()).as(rule).isEqualTo("KarpenterInterruptionQueueTarget");
            assertThat(targets.get(0).path("Arn").asText()).as(rule).isEqualTo(queueAttributes.get("QueueArn"));
        }
    }

    @Test
    @Order(1)
    void defaultTagsReachTheQueueAndEveryRule() {
        JsonNode queueTags = moto.boto3("""
                emit(boto3.client("sqs").list_queue_tags(QueueUrl=args[0]).get("Tags", {}))
                """, queueUrl);
        assertThat(queueTags.path("Team").asText()).isEqualTo("platform");
        for (String rule : RULE_NAMES) {
            JsonNode ruleTags = moto.boto3("""
                    events = boto3.client("events")
                    arn = events.describe_rule(Name=args[0])["Arn"]
                    emit({t["Key"]: t["Value"] for t in events.list_tags_for_resource(ResourceARN=arn)["Tags"]})
                    """, rule);
            assertThat(ruleTags.path("Team").asText()).as(rule).isEqualTo("platform");
        }
    }

    @Test
    @Order(1)
    void queueAgeAlarmWatchesTheQueuesOldestMessage() {
        JsonNode alarm = describeAlarm(CLUSTER + "-InterruptionQueueAge");

        assertThat(alarm.path("Namespace").asText()).isEqualTo("AWS/SQS");
        assertThat(alarm.path("MetricName").asText()).isEqualTo("ApproximateAgeOfOldestMessage");
        assertThat(alarm.path("Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(Map.of("Name", "QueueName", "Value", CLUSTER))));
        assertThat(alarm.path("Statistic").asText()).isEqualTo("Maximum");
        assertThat(alarm.path("Threshold").asDouble()).isEqualTo(90.0);
        assertThat(alarm.path("EvaluationPeriods").asInt()).isEqualTo(3);
        assertThat(texts(alarm.path("AlarmActions"))).containsExactly(TOPIC);
        assertThat(texts(alarm.path("OKActions"))).containsExactly(TOPIC);
    }

    @Test
    @Order(1)
    void ruleFailuresAlarmSumsTheFailedInvocationsOfEveryRule() {
        JsonNode alarm = describeAlarm(CLUSTER + "-InterruptionRuleFailures");

        List<String> rules = new ArrayList<>();
        String expression = "";
        for (JsonNode query : alarm.path("Metrics")) {
            if (query.has("Expression")) {
                expression = query.path("Expression").asText();
            } else {
                assertThat(query.at("/MetricStat/Metric/Namespace").asText()).isEqualTo("AWS/Events");
                assertThat(query.at("/MetricStat/Metric/MetricName").asText()).isEqualTo("FailedInvocations");
                rules.add(query.at("/MetricStat/Metric/Dimensions/0/Value").asText());
            }
        }
        assertThat(rules).containsExactlyInAnyOrderElementsOf(RULE_NAMES);
        assertThat(expression).startsWith("SUM([");
        assertThat(texts(alarm.path("AlarmActions"))).containsExactly(TOPIC);
    }

    @Test
    @Order(1)
    void defaultTagsReachBothAlarms() {
        for (String name : ALARM_NAMES) {
            JsonNode tags = moto.boto3("""
                    cloudwatch = boto3.client("cloudwatch")
                    arn = cloudwatch.describe_alarms(AlarmNames=[args[0]])["MetricAlarms"][0]["AlarmArn"]
                    emit({t["Key"]: t["Value"] for t in cloudwatch.list_tags_for_resource(ResourceARN=arn)["Tags"]})
                    """, name);
            assertThat(tags.path("Team").asText()).as(name).isEqualTo("platform");
        }
    }

    @Test
    @Order(1)
    void outputsTheQueueNameAndArn() {
        JsonNode outputs = terraform.output();

        assertThat(outputs.at("/karpenter_sqs_queue_name/value").asText()).isEqualTo(CLUSTER);
        assertThat(outputs.at("/karpenter_sqs_queue_arn/value").asText()).isEqualTo(queueAttributes.get("QueueArn"));
    }

    @Test
    @Order(2)
    void planRightAfterApplyHasNoChanges() {
        assertThat(timed("plan", terraform::plan)).as("plan -detailed-exitcode").isZero();
    }

    @Test
    @Order(3)
    void destroyLeavesNoQueueNoRuleAndNoAlarm() {
        timed("destroy", () -> {
            terraform.destroy();
            return null;
        });

        assertThat(moto.listQueueUrls()).isEmpty();
        assertThat(moto.listRuleNames()).isEmpty();
        assertThat(alarmNames()).isEmpty();
    }

    private static JsonNode describeAlarm(String name) {
        JsonNode alarms = moto.boto3("""
                emit(boto3.client("cloudwatch").describe_alarms(AlarmNames=[args[0]])["MetricAlarms"])
                """, name);
        assertThat(alarms).as(name).hasSize(1);
        return alarms.get(0);
    }

    private static List<String> alarmNames() {
        return texts(moto.boto3("""
                emit([a["AlarmName"] for a in boto3.client("cloudwatch").describe_alarms()["MetricAlarms"]])
                """));
    }

    private static JsonNode eventPattern(String rule) throws Exception {
        JsonNode described = moto.boto3("""
                emit(boto3.client("events").describe_rule(Name=args[0]))
                """, rule);
        return JSON.readTree(described.path("EventPattern").asText());
    }

    private static JsonNode pattern(String source, String detailType) {
        return JSON.valueToTree(Map.of("source", List.of(source), "detail-type", List.of(detailType)));
    }

    /** Runs a terraform step and prints how long it took, for the record of apply/plan/destroy times. */
    private static <T> T timed(String step, Supplier<T> action) {
        long start = System.nanoTime();
        T result = action.get();
        System.out.println("InterruptionStackIT: terraform " + step + " took "
                + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
        return result;
    }
}
