package dev.platform.karpenter.adopt;

import dev.platform.karpenter.adopt.OldState.Resource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The major versions of terraform-aws-modules' {@code modules/karpenter}, told apart by the resource addresses their
 * sources declare (v19.21.0, v20.37.2, v21.0.0 to v21.19.0). v20 renamed the IAM resources (its migrations.tf moves
 * irsa to controller and this to node); v21 gave the data sources a count and added an inline controller policy.
 */
enum ModuleVersion {
    V19(
            "v19.x",
            "aws_iam_role.irsa",
            "aws_iam_role.this",
            Set.of(
                    "aws_iam_role.irsa",
                    "aws_iam_policy.irsa",
                    "aws_iam_role_policy_attachment.irsa",
                    "aws_iam_role_policy_attachment.irsa_additional",
                    "aws_iam_role.this",
                    "aws_iam_role_policy_attachment.this",
                    "aws_iam_role_policy_attachment.additional")),
    V20(
            "v20.x",
            "aws_iam_role.controller",
            "aws_iam_role.node",
            Set.of(
                    "aws_iam_role.controller",
                    "aws_iam_policy.controller",
                    "aws_iam_role_policy_attachment.controller",
                    "aws_iam_role_policy_attachment.controller_additional",
                    "aws_eks_pod_identity_association.karpenter",
                    "aws_iam_role.node",
                    "aws_iam_role_policy_attachment.node",
                    "aws_iam_role_policy_attachment.node_additional",
                    "aws_eks_access_entry.node")),
    V21("v21.x", V20.controllerRole, V20.nodeRole, plus(V20.own, "aws_iam_role_policy.controller"));

    /** Resources every version declares under the same address. */
    static final Set<String> SHARED = Set.of(
            "aws_sqs_queue.this",
            "aws_sqs_queue_policy.this",
            "aws_cloudwatch_event_rule.this",
            "aws_cloudwatch_event_target.this",
            "aws_iam_instance_profile.this");

    final String label;
    final String controllerRole;
    final String nodeRole;
    private final Set<String> own;

    ModuleVersion(String label, String controllerRole, String nodeRole, Set<String> own) {
        this.label = label;
        this.controllerRole = controllerRole;
        this.nodeRole = nodeRole;
        this.own = own;
    }

    boolean declares(String local) {
        return own.contains(local) || SHARED.contains(local);
    }

    /** Addresses no other module of terraform-aws-modules declares: the controller's role, policy and association. */
    private static final Set<String> KARPENTER_ONLY = Set.of(
            "aws_iam_role.irsa",
            "aws_iam_policy.irsa",
            "aws_iam_role.controller",
            "aws_iam_policy.controller",
            "aws_iam_role_policy.controller",
            "aws_eks_pod_identity_association.karpenter");

    /**
     * Whether a module instance is the karpenter module. Other modules of the same root share its generic addresses
     * ({@code aws_iam_role.this} in the eks module and its node group modules, {@code aws_sqs_queue.this} in the sqs
     * module), so it takes an address only the karpenter module declares, or resources that some version declares
     * all of, with a node role or a rule for an event Karpenter handles (v19 without IRSA).
     */
    static boolean isKarpenterModule(List<Resource> resources) {
        List<Resource> managed = resources.stream().filter(Resource::managed).toList();
        if (managed.stream().anyMatch(r -> KARPENTER_ONLY.contains(r.local()))) {
            return true;
        }
        return !managed.isEmpty()
                && of(resources).isPresent()
                && managed.stream()
                        .anyMatch(r -> r.local().equals(V19.nodeRole)
                                || r.local().equals(V20.nodeRole)
                                || (r.local().equals("aws_cloudwatch_event_rule.this")
                                        && StateAdopter.eventOf(r.text("event_pattern"))
                                                .isPresent()));
    }

    /**
     * The version whose sources declare every managed resource of the module, or empty with the first address no
     * version declares.
     */
    static Optional<ModuleVersion> of(List<Resource> resources) {
        Set<String> managed = new TreeSet<>();
        resources.stream().filter(Resource::managed).forEach(r -> managed.add(r.local()));
        boolean v19 = managed.stream().allMatch(V19::declares);
        boolean v2x = managed.stream().allMatch(V21::declares);
        if (v19 && !v2x) {
            return Optional.of(V19);
        }
        if (v2x && !v19) {
            return Optional.of(isV21(resources) ? V21 : V20);
        }
        if (v19) {
            // Only shared addresses (no role made here): the data sources still tell the versions apart.
            boolean v20DataSources = resources.stream().anyMatch(r -> r.local().equals("data.aws_region.current"));
            return Optional.of(isV21(resources) ? V21 : v20DataSources ? V20 : V19);
        }
        return Optional.empty();
    }

    /** A managed address of the module that no version declares, for the message. */
    static String undeclared(List<Resource> resources) {
        return resources.stream()
                .filter(Resource::managed)
                .filter(r -> !V19.declares(r.local()) && !V21.declares(r.local()))
                .map(Resource::local)
                .findFirst()
                .orElseGet(() -> resources.stream()
                        .filter(Resource::managed)
                        .map(Resource::local)
                        .filter(local -> !V19.declares(local))
                        .findFirst()
                        .orElse(""));
    }

    /** v21 counts its data sources (create = false makes none) and may hold an inline controller policy. */
    private static boolean isV21(List<Resource> resources) {
        return resources.stream()
                .anyMatch(r -> r.local().equals("aws_iam_role_policy.controller")
                        || r.local().equals("data.aws_service_principal.ec2")
                        || (r.local().equals("data.aws_partition.current") && r.hasIndex()));
    }

    private static Set<String> plus(Set<String> set, String more) {
        Set<String> result = new TreeSet<>(set);
        result.add(more);
        return Set.copyOf(result);
    }
}
