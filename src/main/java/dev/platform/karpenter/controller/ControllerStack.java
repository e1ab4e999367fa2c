package dev.platform.karpenter.controller;

import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.interruption.InterruptionStack;
import software.constructs.Construct;

/** {@code <cluster>-karpenter}: the ECR Public token and the Karpenter CRD and controller Helm releases. */
public class ControllerStack extends TerraformStack {
    public ControllerStack(Construct scope, ClusterConfig config, IamStack iam, InterruptionStack interruption) {
        super(scope, config.stackName("karpenter"));
        AwsProviders.regional(this, config);
        addDependency(iam);
        addDependency(interruption);
    }
}
