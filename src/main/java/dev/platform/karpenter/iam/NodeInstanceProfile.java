package dev.platform.karpenter.iam;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.TerraformStrings;
import imports.aws.iam_instance_profile.IamInstanceProfile;
import imports.aws.iam_instance_profile.IamInstanceProfileConfig;
import software.constructs.Construct;

/** The instance profile 0.x launches nodes with (settings.aws.defaultInstanceProfile), wrapping the node role. */
public class NodeInstanceProfile extends Construct {
    private final IamInstanceProfile profile;

    public NodeInstanceProfile(Construct scope, String id, ClusterConfig config, NodeRole nodeRole) {
        super(scope, id);
        profile = new IamInstanceProfile(
                this,
                "profile",
                IamInstanceProfileConfig.builder()
                        .name(config.adoption()
                                .instanceProfile()
                                .map(TerraformStrings::literal)
                                .orElse(config.names().instanceProfile()))
                        .role(nodeRole.name())
                        .build());
        config.adoption().instanceProfile().map(TerraformStrings::literal).ifPresent(profile::importFrom);
    }

    public String name() {
        return profile.getName();
    }
}
