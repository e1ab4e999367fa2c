package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** The IAM role Karpenter's nodes run with: the one the controller may pass to EC2, and the one allowed to join. */
public abstract class NodeRole extends Construct {
    private String arn;
    private String name;

    protected NodeRole(Construct scope, String id) {
        super(scope, id);
    }

    /** Reuses the configured role (create_iam_role = false, the default) or creates one (create_iam_role = true). */
    static NodeRole of(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        return config.iam().createNodeRole()
                ? new CreatedNodeRole(scope, id, config, facts)
                : new ReusedNodeRole(scope, id, config, facts);
    }

    /** Called once by the constructor of each kind, when the role is known. */
    protected final void identify(String roleArn, String roleName) {
        arn = roleArn;
        name = roleName;
    }

    /** The role's ARN, a Terraform reference unless given as iam_role_arn. */
    public final String arn() {
        return arn;
    }

    public final String name() {
        return name;
    }
}
