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
                cluster_name = "%s"
                region = "%s"
                karpenter_chart_version = "%s"
                tags = { Team = "platform" }
                """.formatted(CLUSTER, MotoServer.REGION, TestConfigs.V1)));
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
    void destroyLeavesNoQueueAndNoRule() {
        timed("destroy", () -> {
            terraform.destroy();
            return null;
        });

        assertThat(moto.listQueueUrls()).isEmpty();
        assertThat(moto.listRuleNames()).isEmpty();
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
