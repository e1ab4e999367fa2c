package dev.platform.karpenter.interruption;

import dev.platform.karpenter.config.AlarmSettings;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ResourceNames;
import dev.platform.karpenter.config.TerraformStrings;
import imports.aws.cloudwatch_metric_alarm.CloudwatchMetricAlarm;
import imports.aws.cloudwatch_metric_alarm.CloudwatchMetricAlarmConfig;
import imports.aws.cloudwatch_metric_alarm.CloudwatchMetricAlarmMetricQuery;
import imports.aws.cloudwatch_metric_alarm.CloudwatchMetricAlarmMetricQueryMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import software.constructs.Construct;

/**
 * The two CloudWatch alarms that show a broken interruption path: the queue's oldest message grows old (the controller
 * does not drain it: no permission, wrong queue name, not running), and EventBridge fails to deliver a rule's events to
 * the queue (a queue policy or KMS key that refuses it).
 */
public class InterruptionAlarms extends Construct {
    /** SQS and EventBridge publish these metrics every minute. */
    static final int QUEUE_AGE_PERIOD_SECONDS = 60;

    static final int RULE_FAILURES_PERIOD_SECONDS = 300;

    public InterruptionAlarms(Construct scope, String id, ClusterConfig config, String queueName, List<String> rules) {
        super(scope, id);
        AlarmSettings alarms = config.interruption().alarms();
        ResourceNames names = config.names();
        List<String> alarmActions = literals(alarms.alarmActions());
        List<String> okActions = literals(alarms.okActions());

        new CloudwatchMetricAlarm(
                this,
                "queue_age",
                CloudwatchMetricAlarmConfig.builder()
                        .alarmName(names.alarm(ResourceNames.QUEUE_AGE_ALARM))
                        .alarmDescription("Karpenter is not draining its interruption queue: the oldest message has"
                                + " been older than " + alarms.queueAgeSeconds() + " seconds for "
                                + alarms.evaluationPeriods() + " minutes (docs/guides/alerts.md)")
                        .namespace("AWS/SQS")
                        .metricName("ApproximateAgeOfOldestMessage")
                        .dimensions(Map.of("QueueName", queueName))
                        .statistic("Maximum")
                        .period(QUEUE_AGE_PERIOD_SECONDS)
                        .evaluationPeriods(alarms.evaluationPeriods())
                        .comparisonOperator("GreaterThanThreshold")
                        .threshold(alarms.queueAgeSeconds())
                        // An idle queue reports nothing: that is healthy.
                        .treatMissingData("notBreaching")
                        .alarmActions(alarmActions)
                        .okActions(okActions)
                        .build());

        List<CloudwatchMetricAlarmMetricQuery> queries = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            queries.add(CloudwatchMetricAlarmMetricQuery.builder()
                    .id("rule" + i)
                    .returnData(false)
                    .metric(CloudwatchMetricAlarmMetricQueryMetric.builder()
                            .namespace("AWS/Events")
                            .metricName("FailedInvocations")
                            .dimensions(Map.of("RuleName", rules.get(i)))
                            .stat("Sum")
                            .period(RULE_FAILURES_PERIOD_SECONDS)
                            .build())
                    .build());
        }
        queries.add(CloudwatchMetricAlarmMetricQuery.builder()
                .id("failures")
                .label("Failed deliveries to the interruption queue")
                .expression("SUM(["
                        + IntStream.range(0, rules.size())
                                .mapToObj(i -> "rule" + i)
                                .collect(Collectors.joining(","))
                        + "])")
                .returnData(true)
                .build());
        new CloudwatchMetricAlarm(
                this,
                "rule_failures",
                CloudwatchMetricAlarmConfig.builder()
                        .alarmName(names.alarm(ResourceNames.RULE_FAILURES_ALARM))
                        .alarmDescription("EventBridge failed to deliver interruption events to Karpenter's queue"
                                + " (docs/guides/alerts.md)")
                        .metricQuery(queries)
                        .evaluationPeriods(1)
                        .comparisonOperator("GreaterThanOrEqualToThreshold")
                        .threshold(1)
                        .treatMissingData("notBreaching")
                        .alarmActions(alarmActions)
                        .okActions(okActions)
                        .build());
    }

    /** Null for none, so the JSON holds no empty list. */
    private static List<String> literals(List<String> values) {
        return values.isEmpty()
                ? null
                : values.stream().map(TerraformStrings::literal).toList();
    }
}
