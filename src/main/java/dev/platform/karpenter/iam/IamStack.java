package dev.platform.karpenter.iam;

import dev.platform.karpenter.aws.AwsProviders;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.nodepools.manifest.RenderedPools;
import java.util.List;
import software.constructs.Construct;

/**
 * {@code <cluster>-iam}: the controller role and policy, the node role and its instance profile. Tags come from the
 * provider's default_tags, which every resource here supports.
 */
public class IamStack extends ClusterStack {
    /** The stack is named {@code <cluster_name>-iam}. */
    public static final String CONCERN = "iam";

    private final ControllerRole controllerRole;
    private final NodeRole nodeRole;
    private final String instanceProfileName;

    public IamStack(Construct scope, ClusterConfig config) {
        super(scope, config.stackName(CONCERN));
        AwsProviders.regional(this, config);
        ClusterFacts facts = new ClusterFacts(this, "facts", config);
        nodeRole = NodeRole.of(this, "node-role", config, facts);
        controllerRole = new ControllerRole(this, "controller-role", config, facts);
        new ControllerPolicies(this, "controller-policy", config, facts, controllerRole, nodeRole);
        instanceProfileName = config.apis().needsInstanceProfile()
                ? new NodeInstanceProfile(this, "node-instance-profile", config, nodeRole).name()
                : "";
        if (RenderedPools.of(config).allowsSpot()) {
            new SpotServiceLinkedRole(this, "spot-service-linked-role", config);
        }

        // The seed's output names, so scripts written for it keep working.
        output("karpenter_irsa_arn", controllerRole.arn(), "ARN of the Karpenter controller role");
        output(
                "karpenter_aws_node_instance_profile_name",
                instanceProfileName,
                "Instance profile of Karpenter's nodes (0.x); empty for 1.x, where Karpenter makes its own");
        output("karpenter_node_role_arn", nodeRole.arn(), "ARN of the role Karpenter's nodes use");
        output("karpenter_node_role_name", nodeRole.name(), "Name of the role Karpenter's nodes use");
    }

    /** This stack reads no other stack. */
    @Override
    protected List<String> readFromOtherStacks() {
        return List.of();
    }

    /** ARN of the controller role (IRSA or Pod Identity); a cross-stack reference when read by another stack. */
    public String controllerRoleArn() {
        return controllerRole.arn();
    }

    /** Name of the role Karpenter's nodes use, reused or created. */
    public String nodeRoleName() {
        return nodeRole.name();
    }

    public String nodeRoleArn() {
        return nodeRole.arn();
    }

    /** Instance profile for 0.x (settings.aws.defaultInstanceProfile); empty where none is created. */
    public String instanceProfileName() {
        return instanceProfileName;
    }
}
