package dev.platform.karpenter.policy;

import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringEquals;
import static dev.platform.karpenter.policy.IamPolicyDocument.Condition.stringLike;

import dev.platform.karpenter.policy.IamPolicyDocument.Condition;
import dev.platform.karpenter.policy.IamPolicyDocument.Statement;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterRelease;
import java.util.ArrayList;
import java.util.List;

/**
 * The Karpenter controller's IAM permissions for a release, statement for statement as in the upstream
 * getting-started CloudFormation template of that generation (same Sids, actions, resources and conditions), with
 * the template's parameters ({@code ${AWS::Partition}}, {@code ${ClusterName}}, the queue and node role ARNs) taken
 * from a {@link Scope}.
 *
 * <p>The statements are split into groups, one managed policy each, so that no policy can exceed IAM's 6,144
 * character limit whatever the cluster name: 1.x keeps upstream's six policies; 0.x, one policy upstream, is split
 * along the same lines.
 */
public final class ControllerPolicy {
    private ControllerPolicy() {}

    /**
     * The statement groups of {@code release}, each to become one managed policy. Statements are the policy model's
     * ({@link IamPolicyDocument.Statement#allow}); upstream's controller policies have no Deny statements.
     */
    public static List<Group> groups(KarpenterRelease release, Scope scope) {
        return switch (release.row().policy()) {
            case V1ALPHA5 -> ControllerPolicyV1Alpha5.groups(scope);
            case V1BETA1_BRIDGE -> ControllerPolicyV1Beta1.groups(scope, true);
            case V1BETA1 -> ControllerPolicyV1Beta1.groups(scope, false);
            // Capacity reservation permissions only from the release that has reservations (upstream's template
            // gained them in 1.3.0).
            case V1 -> ControllerPolicyV1.groups(scope, release.hasCapacityReservations());
        };
    }

    /**
     * The groups of a deploy: the release's, plus, while the previous generation's objects are kept, that
     * generation's node permissions as one more policy ("NodeLifecycleV1alpha5", "NodeLifecycleV1beta1"), as
     * upstream's migration guides attach the new policy beside the old one. Nodes launched for the old objects
     * carry the old tags, and until the new controller is applied the old one is still running.
     */
    public static List<Group> groups(DeclaredApis apis, Scope scope) {
        List<Group> groups = new ArrayList<>(groups(apis.release(), scope));
        apis.kept().ifPresent(kept -> {
            Group previous = switch (kept) {
                case V1ALPHA5 -> ControllerPolicyV1Alpha5.groups(scope).get(0);
                case V1BETA1 -> ControllerPolicyV1Beta1.nodeLifecycle(scope, false);
                case V1 -> throw new IllegalStateException("no generation follows v1");
            };
            String spelling = DeclaredApis.spelling(kept);
            groups.add(new Group(
                    previous.name() + Character.toUpperCase(spelling.charAt(0)) + spelling.substring(1),
                    previous.statements()));
        });
        return List.copyOf(groups);
    }

    /**
     * Not in upstream's templates, which assume SQS-managed encryption: a queue encrypted with a customer managed
     * KMS key (queue_kms_key_id) can only be read by a controller that may decrypt with that key.
     */
    public static Group queueEncryption(String keyArn) {
        return new Group(
                "QueueEncryption",
                List.of(Statement.allow("AllowInterruptionQueueDecryption", List.of("kms:Decrypt"), List.of(keyArn))));
    }

    /** The 0.x regional reads, which the v1beta1 releases keep unchanged. */
    static final List<String> V0_REGIONAL_READS = List.of(
            "ec2:DescribeAvailabilityZones",
            "ec2:DescribeImages",
            "ec2:DescribeInstances",
            "ec2:DescribeInstanceTypeOfferings",
            "ec2:DescribeInstanceTypes",
            "ec2:DescribeLaunchTemplates",
            "ec2:DescribeSecurityGroups",
            "ec2:DescribeSpotPriceHistory",
            "ec2:DescribeSubnets");

    /**
     * A 0.32-or-later policy's groups in the getting-started templates' order: the generation's node lifecycle and IAM
     * integration, the EKS and interruption groups all share, then its resource discovery and any later groups.
     */
    static List<Group> inTemplateOrder(
            Scope s,
            Group nodeLifecycle,
            Group iamIntegration,
            List<String> queueActions,
            Group resourceDiscovery,
            Group... later) {
        List<Group> groups = new ArrayList<>(List.of(
                nodeLifecycle, iamIntegration, eksIntegration(s), interruption(s, queueActions), resourceDiscovery));
        groups.addAll(List.of(later));
        return List.copyOf(groups);
    }

    /** The interruption queue's messages: every generation reads and deletes them; some read attributes too. */
    static Group interruption(Scope s, List<String> actions) {
        return new Group(
                "Interruption",
                List.of(Statement.allow("AllowInterruptionQueueActions", actions, List.of(s.queueArn()))));
    }

    /** Read-only EC2 calls, limited to this region. */
    static Statement regionalReads(Scope s, List<String> actions) {
        return Statement.allow(
                "AllowRegionalReadActions", actions, List.of("*"), stringEquals("aws:RequestedRegion", s.region()));
    }

    /** Since v1beta1: the public EKS AMI parameters of this region, and the price list. */
    static List<Statement> ssmAndPricingReads(Scope s) {
        return List.of(
                Statement.allow(
                        "AllowSSMReadActions", List.of("ssm:GetParameter"), List.of(s.ssmParameter("aws/service/*"))),
                Statement.allow("AllowPricingReadActions", List.of("pricing:GetProducts"), List.of("*")));
    }

    /**
     * Passing the node role, and only it, to EC2. Upstream's templates name ec2.amazonaws.com (v0.x) or also its
     * aws-cn spelling (1.x); every generation here names the EC2 principal of the cluster's own partition, so
     * GovCloud, China, ISO and EU sovereign partitions work alike ({@link #passedToServices}).
     */
    static Statement passNodeRole(Scope s) {
        return Statement.allow(
                "AllowPassingInstanceRole",
                List.of("iam:PassRole"),
                List.of(s.nodeRoleArn()),
                stringEquals(
                        "iam:PassedToService",
                        passedToServices(s.ec2Principal()).toArray(String[]::new)));
    }

    /**
     * The services the node role may be passed to: the partition's EC2 principal, and in China also the global one,
     * since there launching an instance passes the role to ec2.amazonaws.com.cn but adding it to an instance profile
     * (which Karpenter does from 0.32 on) passes it to ec2.amazonaws.com (upstream #6843, fixed in its template by
     * #6839).
     */
    public static List<String> passedToServices(String ec2Principal) {
        return ec2Principal.endsWith(".amazonaws.com.cn")
                ? List.of("ec2.amazonaws.com", ec2Principal)
                : List.of(ec2Principal);
    }

    /** Terminating instances and deleting launch templates of this cluster's pools only. */
    static Statement scopedDeletion(Scope s, String poolTag) {
        return Statement.allow(
                "AllowScopedDeletion",
                List.of("ec2:TerminateInstances", "ec2:DeleteLaunchTemplate"),
                List.of(s.ec2("instance/*"), s.ec2("launch-template/*")),
                owned(s, RESOURCE),
                anyValue(RESOURCE, poolTag));
    }

    /** Launching from the launch templates Karpenter made for this cluster's pools. */
    static Statement launchTemplateAccess(Scope s, String poolTag) {
        return Statement.allow(
                "AllowScopedEC2LaunchTemplateAccessActions",
                List.of("ec2:RunInstances", "ec2:CreateFleet"),
                List.of(s.ec2("launch-template/*")),
                owned(s, RESOURCE),
                anyValue(RESOURCE, poolTag));
    }

    /** Tagging existing instances: {@code sid} and the conditions differ between generations. */
    static Statement instanceTagging(String sid, Scope s, Condition... conditions) {
        return Statement.allow(sid, List.of("ec2:CreateTags"), List.of(s.ec2("instance/*")), conditions);
    }

    /** Making instance profiles for node classes, and tagging them. */
    static Statement instanceProfileCreation(List<String> resources, Condition... conditions) {
        return Statement.allow(
                "AllowScopedInstanceProfileCreationActions",
                List.of("iam:CreateInstanceProfile"),
                resources,
                conditions);
    }

    static Statement instanceProfileTagging(List<String> resources, Condition... conditions) {
        return Statement.allow(
                "AllowScopedInstanceProfileTagActions", List.of("iam:TagInstanceProfile"), resources, conditions);
    }

    /** Adding the node role to, removing it from, and deleting the instance profiles Karpenter made. */
    static Statement instanceProfileActions(List<String> resources, Condition... conditions) {
        return Statement.allow(
                "AllowScopedInstanceProfileActions",
                List.of(
                        "iam:AddRoleToInstanceProfile",
                        "iam:RemoveRoleFromInstanceProfile",
                        "iam:DeleteInstanceProfile"),
                resources,
                conditions);
    }

    /** Tag conditions name the tags of the resource acted on ({@code aws:ResourceTag/}) or of the request. */
    static final String RESOURCE = "aws:ResourceTag/";

    static final String REQUEST = "aws:RequestTag/";

    /** The tags Karpenter puts on the instance profiles it makes for a node class. */
    static final String NODE_CLASS_TAG = "karpenter.k8s.aws/ec2nodeclass";

    static final String REGION_TAG = "topology.kubernetes.io/region";

    /** Tagged ({@code tags}: {@link #RESOURCE} or {@link #REQUEST}) as owned by this cluster. */
    static Condition owned(Scope s, String tags) {
        return stringEquals(tags + s.clusterTag(), "owned");
    }

    /** Carrying the tag {@code key} with any value, e.g. the pool tag. */
    static Condition anyValue(String tags, String key) {
        return stringLike(tags + key, "*");
    }

    /** The same in every generation: the controller reads the cluster's API endpoint. */
    static Group eksIntegration(Scope s) {
        return new Group(
                "EKSIntegration",
                List.of(Statement.allow(
                        "AllowAPIServerEndpointDiscovery", List.of("eks:DescribeCluster"), List.of(s.clusterArn()))));
    }

    /**
     * Where the policy applies. Values may be Terraform expressions (tokens) resolved at plan time.
     *
     * @param clusterArn  the cluster's ARN, i.e. {@code arn:<partition>:eks:<region>:<account>:cluster/<name>}
     * @param nodeRoleArn the role Karpenter's nodes use, the only role the controller may pass
     */
    public record Scope(
            String partition,
            String region,
            String accountId,
            String clusterName,
            String clusterArn,
            String queueArn,
            String nodeRoleArn,
            String ec2Principal) {

        /** An EC2 resource in this region, owned by any account (shared subnets and security groups included). */
        String ec2(String resource) {
            return "arn:" + partition + ":ec2:" + region + ":*:" + resource;
        }

        /** An EC2 resource whose ARN has no account: images and snapshots. */
        String ec2WithoutAccount(String resource) {
            return "arn:" + partition + ":ec2:" + region + "::" + resource;
        }

        /** A public SSM parameter of this region (their ARNs have no account), e.g. the EKS AMI ids. */
        String ssmParameter(String path) {
            return "arn:" + partition + ":ssm:" + region + "::parameter/" + path;
        }

        String iam(String resource) {
            return "arn:" + partition + ":iam::" + accountId + ":" + resource;
        }

        /** Tag key marking resources owned by this cluster. */
        String clusterTag() {
            return "kubernetes.io/cluster/" + clusterName;
        }
    }

    /** Statements that become one managed policy, named after {@code name} (e.g. "NodeLifecycle"). */
    public record Group(String name, List<Statement> statements) {
        public Group {
            statements = List.copyOf(statements);
        }

        /** The managed policy's document, as IAM reads it. */
        public IamPolicyDocument document() {
            return IamPolicyDocument.of(statements);
        }
    }
}
