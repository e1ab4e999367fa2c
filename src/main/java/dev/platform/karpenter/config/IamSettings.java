package dev.platform.karpenter.config;

import dev.platform.karpenter.versions.KarpenterRelease;
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

    static IamSettings from(Settings settings, KarpenterRelease release) {
        ControllerIdentity identity = settings.choice("controller_identity", ControllerIdentity.class);
        if (identity == ControllerIdentity.POD_IDENTITY && !release.supportsPodIdentity()) {
            throw new ConfigException(
                    "controller_identity \"pod_identity\" needs Karpenter 1.x; karpenter_chart_version "
                            + release.chartVersion() + " predates EKS Pod Identity: use \"irsa\" or a 1.x chart");
        }
        boolean create = settings.bool("create_iam_role");
        String nodeGroup = settings.string("node_group_name");
        Optional<String> roleArn = settings.optionalString("iam_role_arn");
        roleArn.ifPresent(arn -> {
            if (!ROLE_ARN.matcher(arn).matches()) {
                throw new ConfigException(
                        "iam_role_arn must be an IAM role ARN (arn:aws:iam::123456789012:role/NAME), got "
                                + ConfigException.quote(arn) + "");
            }
            if (create) {
                throw new ConfigException("iam_role_arn names a role to reuse, so create_iam_role must be false");
            }
        });
        AwsRules.requireNodeGroupName("node_group_name", nodeGroup);
        boolean accessEntry = settings.bool("iam_role_access_entry");
        if (roleArn.isEmpty() && !accessEntry) {
            throw new ConfigException(
                    "iam_role_access_entry applies only with iam_role_arn: a node group's role already has"
                            + " its access entry, and create_iam_role = true always makes one");
        }
        return new IamSettings(
                identity, create, nodeGroup, roleArn, settings.bool("irsa_use_name_prefix"), accessEntry);
    }
}
