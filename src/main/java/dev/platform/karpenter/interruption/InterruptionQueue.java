package dev.platform.karpenter.interruption;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.Regions;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.policy.IamPolicyDocument;
import dev.platform.karpenter.policy.IamPolicyDocument.Condition;
import dev.platform.karpenter.policy.IamPolicyDocument.Effect;
import dev.platform.karpenter.policy.IamPolicyDocument.Principal;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import imports.aws.sqs_queue.SqsQueue;
import imports.aws.sqs_queue.SqsQueueConfig;
import imports.aws.sqs_queue_policy.SqsQueuePolicy;
import imports.aws.sqs_queue_policy.SqsQueuePolicyConfig;
import java.util.List;
import software.constructs.Construct;

/** The SQS queue Karpenter drains, with the policy that lets EventBridge write to it over TLS only. */
public class InterruptionQueue extends Construct {
    /** Interruption warnings are stale after two minutes; upstream keeps them five. */
    static final int MESSAGE_RETENTION_SECONDS = 300;

    private final String name;
    private final String arn;

    public InterruptionQueue(Construct scope, String id, ClusterConfig config) {
        super(scope, id);
        SqsQueueConfig.Builder queueConfig = SqsQueueConfig.builder()
                .name(config.names().queue())
                .messageRetentionSeconds(MESSAGE_RETENTION_SECONDS);
        // A customer key replaces SQS-managed encryption; the two are mutually exclusive in the SQS API.
        config.interruption()
                .kmsKeyId()
                .map(TerraformStrings::literal)
                .ifPresentOrElse(queueConfig::kmsMasterKeyId, () -> queueConfig.sqsManagedSseEnabled(true));
        SqsQueue queue = new SqsQueue(this, "queue", queueConfig.build());
        name = queue.getName();
        arn = queue.getArn();

        SqsQueuePolicy policy = new SqsQueuePolicy(
                this,
                "policy",
                SqsQueuePolicyConfig.builder()
                        .queueUrl(queue.getUrl())
                        .policy(policyDocument(Regions.dnsSuffix(config.region()))
                                .toJson())
                        .build());
        // The queue's URL is the import id of the queue and of its policy alike.
        config.adoption().queue().map(TerraformStrings::literal).ifPresent(url -> {
            queue.importFrom(url);
            policy.importFrom(url);
        });
    }

    /** The queue's name as a Terraform reference. */
    public String name() {
        return name;
    }

    /** The queue's ARN as a Terraform reference. */
    public String arn() {
        return arn;
    }

    /**
     * Upstream's EC2InterruptionPolicy, with service principals in the partition's DNS suffix, except in China:
     * there EventBridge and SQS keep their global names, and SQS refuses a policy naming events.amazonaws.com.cn
     * ("Invalid value for the parameter Policy", terraform-aws-modules/terraform-aws-eks#2932).
     */
    private IamPolicyDocument policyDocument(String dnsSuffix) {
        String suffix = dnsSuffix.equals("amazonaws.com.cn") ? "amazonaws.com" : dnsSuffix;
        Statement allowEventBridge = Statement.of("", Effect.Allow, List.of("sqs:SendMessage"), List.of(arn), List.of())
                .withPrincipal(Principal.service("events." + suffix, "sqs." + suffix));
        Statement denyHttp = Statement.of(
                        "DenyHTTP",
                        Effect.Deny,
                        List.of("sqs:*"),
                        List.of(arn),
                        List.of(Condition.bool("aws:SecureTransport", "false")))
                .withPrincipal(Principal.anyone());
        return IamPolicyDocument.of(allowEventBridge, denyHttp).withId("EC2InterruptionPolicy");
    }
}
