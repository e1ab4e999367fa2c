package dev.platform.karpenter.interruption;

import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** {@code <cluster>-interruption}: the SQS queue Karpenter drains and the EventBridge rules that feed it. */
public class InterruptionStack extends TerraformStack {
    public InterruptionStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName("interruption"));
        AwsProviders.regional(this, config);
    }

    /** Name of the interruption queue; a cross-stack reference when read by another stack. */
    public String queueName() {
        return "";
    }

    public String queueArn() {
        return "";
    }
}
