package dev.platform.karpenter.interruption;

import dev.platform.karpenter.config.ClusterConfig;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocument;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentConfig;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatement;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatementCondition;
import imports.aws.data_aws_iam_policy_document.DataAwsIamPolicyDocumentStatementPrincipals;
import imports.aws.data_aws_partition.DataAwsPartition;
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

    private final SqsQueue queue;

    public InterruptionQueue(Construct scope, String id, ClusterConfig config) {
        super(scope, id);
        SqsQueueConfig.Builder queueConfig = SqsQueueConfig.builder()
                .name(config.names().queue())
                .messageRetentionSeconds(MESSAGE_RETENTION_SECONDS);
        // A customer key replaces SQS-managed encryption; the two are mutually exclusive in the SQS API.
        config.interruption().kmsKeyId().ifPresentOrElse(
                queueConfig::kmsMasterKeyId,
                () -> queueConfig.sqsManagedSseEnabled(true));
        queue = new SqsQueue(this, "queue", queueConfig.build());

        new SqsQueuePolicy(this, "policy", SqsQueuePolicyConfig.builder()
                .queueUrl(queue.getUrl())
                .policy(policyDocument().getJson())
                .build());
    }

    /** The queue's name as a Terraform reference. */
    public String name() {
        return queue.getName();
    }

    /** The queue's ARN as a Terraform reference. */
    public String arn() {
        return queue.getArn();
    }

    /** Upstream's EC2InterruptionPolicy, with service principals in the partition's DNS suffix (China: amazonaws.com.cn). */
    private DataAwsIamPolicyDocument policyDocument() {
        DataAwsPartition partition = new DataAwsPartition(this, "partition");
        String dnsSuffix = partition.getDnsSuffix();
        DataAwsIamPolicyDocumentStatement allowEventBridge = DataAwsIamPolicyDocumentStatement.builder()
                .effect("Allow")
                .principals(List.of(DataAwsIamPolicyDocumentStatementPrincipals.builder()
                        .type("Service")
                        .identifiers(List.of("events." + dnsSuffix, "sqs." + dnsSuffix))
                        .build()))
                .actions(List.of("sqs:SendMessage"))
                .resources(List.of(queue.getArn()))
                .build();
        DataAwsIamPolicyDocumentStatement denyHttp = DataAwsIamPolicyDocumentStatement.builder()
                .sid("DenyHTTP")
                .effect("Deny")
                .principals(List.of(DataAwsIamPolicyDocumentStatementPrincipals.builder()
                        .type("*")
                        .identifiers(List.of("*"))
                        .build()))
                .actions(List.of("sqs:*"))
                .resources(List.of(queue.getArn()))
                .condition(List.of(DataAwsIamPolicyDocumentStatementCondition.builder()
                        .test("Bool")
                        .variable("aws:SecureTransport")
                        .values(List.of("false"))
                        .build()))
                .build();
        return new DataAwsIamPolicyDocument(this, "policy_document", DataAwsIamPolicyDocumentConfig.builder()
                .policyId("EC2InterruptionPolicy")
                .statement(List.of(allowEventBridge, denyHttp))
                .build());
    }
}
