package dev.platform.karpenter.interruption;

import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.aws.ClusterGuards;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.release.InterruptionEvents;
import dev.platform.karpenter.release.InterruptionEvents.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.constructs.Construct;

/** {@code <cluster>-interruption}: the SQS queue Karpenter drains, the EventBridge rules that feed
 * it, and the alarms that tell when either breaks. */
public class InterruptionStack extends ClusterStack {
    /** The stack is named {@code <cluster_name>-interruption}. */
    public static final String CONCERN = "interruption";

    private final InterruptionQueue queue;

    public InterruptionStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName(CONCERN));
        AwsProviders.regional(this, config);
        // Nothing here needs the cluster, but deploy '*' plans this stack first (with the IAM stack): reading the
        // cluster with the version guards stops it before a queue is made for a Karpenter that cannot run.
        ClusterGuards.guardedCluster(this, config);
        queue = new InterruptionQueue(this, "interruption_queue", config);
        List<String> ruleNames = new ArrayList<>();
        for (Event event : InterruptionEvents.handledBy(config.release())) {
            // An adopted rule keeps its name (a name_prefix one included), so no second set forwards each event.
            String adopted = Optional.ofNullable(config.adoption().eventRules().get(event.ruleSuffix()))
                    .map(TerraformStrings::literal)
                    .orElse(null);
            InterruptionRule rule = new InterruptionRule(
                    this,
                    event.ruleSuffix(),
                    adopted != null ? adopted : config.names().eventRule(event.ruleSuffix()),
                    event,
                    queue.arn());
            if (adopted != null) {
                rule.adopt(adopted);
            }
            ruleNames.add(rule.name());
        }
        if (config.interruption().alarms().enabled()) {
            new InterruptionAlarms(this, "alarms", config, queue.name(), ruleNames);
        }
        output(
                "karpenter_sqs_queue_name",
                queue.name(),
                "SQS queue Karpenter drains for interruption events (its interruption queue setting)");
        output(
                "karpenter_sqs_queue_arn",
                queue.arn(),
                "ARN of the interruption queue (the controller policy allows reading and deleting from it)");
    }

    /** This stack reads no other stack. */
    @Override
    protected List<String> readFromOtherStacks() {
        return List.of();
    }

    /** Name of the interruption queue; a cross-stack reference when read by another stack. */
    public String queueName() {
        return queue.name();
    }

    /** ARN of the interruption queue; a cross-stack reference when read by another stack. */
    public String queueArn() {
        return queue.arn();
    }
}
