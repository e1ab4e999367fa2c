package dev.platform.karpenter.interruption;

import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** {@code <cluster>-interruption}: the SQS queue Karpenter drains and the EventBridge rules that feed it. */
public class InterruptionStack extends TerraformStack {
    public InterruptionStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName("interruption"));
        AwsProviders.regional(this, config);
        new TerraformOutput(this, "karpenter_sqs_queue_name",
                TerraformOutputConfig.builder().value(config.names().queue()).build());
    }
}
