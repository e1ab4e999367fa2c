package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import software.constructs.Construct;

/** The IAM role Karpenter's nodes run with: the one the controller may pass to EC2, and the one allowed to join. */
public interface NodeRole {
    String arn();

    String name();

    /** Reuses the configured role (create_iam_role = false, the default) or creates one (create_iam_role = true). */
    static NodeRole of(Construct scope, String id, ClusterConfig config, ClusterFacts facts) {
        return config.iam().createNodeRole()
                ? new CreatedNodeRole(scope, id, config, facts)
                : new ReusedNodeRole(scope, id, config, facts);
    }
}
