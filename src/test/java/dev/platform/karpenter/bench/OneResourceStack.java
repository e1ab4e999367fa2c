package dev.platform.karpenter.bench;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.TerraformStack;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import imports.aws.sqs_queue.SqsQueue;
import imports.aws.sqs_queue.SqsQueueConfig;

/**
 * The synthesis floor bench/synth compares the app against: one stack with one resource, built with the same
 * generated bindings, cdktf and JVM. Everything the app costs above this is the app's own.
 */
public final class OneResourceStack {
    private OneResourceStack() {}

    public static void main(String[] args) {
        App app = new App();
        TerraformStack stack = new TerraformStack(app, "floor");
        new AwsProvider(
                stack, "aws", AwsProviderConfig.builder().region("us-east-1").build());
        new SqsQueue(stack, "queue", SqsQueueConfig.builder().name("floor").build());
        app.synth();
    }
}
