package dev.platform.karpenter.iam;

import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** {@code <cluster>-iam}: the controller role and policy, the node role and its instance profile. */
public class IamStack extends TerraformStack {
    public IamStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName("iam"));
        AwsProviders.regional(this, config);
    }

    /** ARN of the controller role (IRSA or Pod Identity); a cross-stack reference when read by another stack. */
    public String controllerRoleArn() {
        return "";
    }

    /** Name of the role Karpenter's nodes use, reused or created. */
    public String nodeRoleName() {
        return "";
    }

    public String nodeRoleArn() {
        return "";
    }

    /** Instance profile for 0.x (settings.aws.defaultInstanceProfile); empty where none is created. */
    public String instanceProfileName() {
        return "";
    }
}
