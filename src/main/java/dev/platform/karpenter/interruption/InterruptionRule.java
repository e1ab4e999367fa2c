package dev.platform.karpenter.interruption;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import imports.aws.cloudwatch_event_rule.CloudwatchEventRule;
import imports.aws.cloudwatch_event_rule.CloudwatchEventRuleConfig;
import imports.aws.cloudwatch_event_target.CloudwatchEventTarget;
import imports.aws.cloudwatch_event_target.CloudwatchEventTargetConfig;
import software.constructs.Construct;

/** One EventBridge rule on the default bus that forwards a single kind of event to the interruption queue. */
public class InterruptionRule extends Construct {
    /** Upstream's target id; kept so rules made by the getting-started template and by this app look alike. */
    static final String TARGET_ID = "KarpenterInterruptionQueueTarget";

    private final CloudwatchEventRule rule;
    private final CloudwatchEventTarget target;

    public InterruptionRule(Construct scope, String id, String ruleName, Event event, String queueArn) {
        super(scope, id);
        rule = new CloudwatchEventRule(
                this,
                "rule",
                CloudwatchEventRuleConfig.builder()
                        .name(ruleName)
                        .description("Karpenter interruption handling: " + event.detailType())
                        .eventPattern(eventPattern(event))
                        .build());
        target = new CloudwatchEventTarget(
                this,
                "target",
                CloudwatchEventTargetConfig.builder()
                        .rule(rule.getName())
                        .targetId(TARGET_ID)
                        .arn(queueArn)
                        .build());
    }

    /** The rule's name as a Terraform reference. */
    String name() {
        return rule.getName();
    }

    /** Imports the existing rule of that name and its queue target instead of creating them. */
    void adopt(String ruleName) {
        rule.importFrom(ruleName);
        target.importFrom(ruleName + "/" + TARGET_ID);
    }

    /** {"source":[...],"detail-type":[...]}: matches the event's source and detail-type exactly. */
    static String eventPattern(Event event) {
        ObjectNode pattern = JsonNodeFactory.instance.objectNode();
        pattern.putArray("source").add(event.source());
        pattern.putArray("detail-type").add(event.detailType());
        return pattern.toString();
    }
}
