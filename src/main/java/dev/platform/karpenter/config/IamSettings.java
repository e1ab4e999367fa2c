package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.CONTROLLER_IDENTITY;
import static dev.platform.karpenter.config.SettingsCatalogue.CREATE_IAM_ROLE;
import static dev.platform.karpenter.config.SettingsCatalogue.IAM_ROLE_ACCESS_ENTRY;
import static dev.platform.karpenter.config.SettingsCatalogue.IAM_ROLE_ARN;
import static dev.platform.karpenter.config.SettingsCatalogue.IRSA_USE_NAME_PREFIX;
import static dev.platform.karpenter.config.SettingsCatalogue.NODE_GROUP_NAME;

import dev.platform.karpenter.release.DeclaredApis;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Identity settings: how the controller authenticates and which role the nodes use.
 *
 * @param controllerIdentity   irsa (default) or pod_identity
 * @param createNodeRole       create_iam_role: true makes a node role; false (default) reuses an existing one
 * @param nodeGroupName        node_group_name: the managed node group whose role is reused (default "default")
 * @param nodeRoleArn          iam_role_arn: a role to reuse directly instead of the node group's
 * @param useNamePrefix        irsa_use_name_prefix: give the controller role a name prefix instead of a fixed name
 * @param nodeRoleAccessEntry  iam_role_access_entry: with iam_role_arn, give that role an EC2_LINUX access entry when
 *                             it belongs to no managed node group of the cluster (default true); false when it can
 *                             already join (an access entry or aws-auth mapping made elsewhere)
 */
public record IamSettings(
        ControllerIdentity controllerIdentity,
        boolean createNodeRole,
        String nodeGroupName,
        Optional<String> nodeRoleArn,
        boolean useNamePrefix,
        boolean nodeRoleAccessEntry) {

    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");

    static IamSettings from(SettingsReader settings, DeclaredApis apis) {
        ControllerIdentity identity = settings.get(CONTROLLER_IDENTITY);
        CONTROLLER_IDENTITY.requireAvailable(identity, apis);
        boolean create = settings.get(CREATE_IAM_ROLE);
        String nodeGroup = settings.get(NODE_GROUP_NAME);
        Optional<String> roleArn = settings.optional(IAM_ROLE_ARN);
        roleArn.ifPresent(arn -> {
            ConfigException.requireMatch(
                    ROLE_ARN, "iam_role_arn", "must be an IAM role ARN (arn:aws:iam::123456789012:role/NAME)", arn);
            ConfigException.require(
                    !create, () -> "iam_role_arn names a role to reuse, so create_iam_role must be false");
        });
        AwsRules.requireNodeGroupName("node_group_name", nodeGroup);
        boolean accessEntry = settings.get(IAM_ROLE_ACCESS_ENTRY);
        ConfigException.require(
                roleArn.isPresent() || accessEntry,
                () -> "iam_role_access_entry applies only with iam_role_arn: a node group's role already has"
                        + " its access entry, and create_iam_role = true always makes one");
        return new IamSettings(identity, create, nodeGroup, roleArn, settings.get(IRSA_USE_NAME_PREFIX), accessEntry);
    }
}
