package dev.platform.karpenter.nodepools;

import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.iam.IamStack;
import software.constructs.Construct;

/** {@code <cluster>-nodepools}: the default pool and node class, applied once the controller and CRDs exist. */
public class NodePoolsStack extends TerraformStack {
    public NodePoolsStack(Construct scope, ClusterConfig config, IamStack iam, ControllerStack controller) {
        super(scope, config.stackName("nodepools"));
        AwsProviders.regional(this, config);
        addDependency(controller);
    }
}
