package dev.platform.karpenter.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.PolicyStatements;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The controller policy per release against the upstream getting-started templates (copied, with their parameters,
 * into controller-policy-*.json next to this class), and its size against IAM's limit.
 */
@KernelOnlyThroughSynthesized
class ControllerPolicyTest {
    /** IAM's limit on a managed policy document, white space not counted. */
    private static final int MANAGED_POLICY_MAX = 6_144;

    private static final ControllerPolicy.Scope DEMO = new ControllerPolicy.Scope(
            "aws",
            "us-west-2",
            "123456789012",
            "demo",
            "arn:aws:eks:us-west-2:123456789012:cluster/demo",
            "arn:aws:sqs:us-west-2:123456789012:demo",
            "arn:aws:iam::123456789012:role/eks-node-group-default",
            "ec2.amazonaws.com");

    /** The first and the newest release of every supported minor. */
    static Stream<KarpenterRelease> releases() {
        return KarpenterMinor.all().stream()
                .flatMap(minor -> Stream.of(minor.firstRelease(), minor.newestRelease()))
                .distinct();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void hasExactlyTheUpstreamStatementsOfItsPolicyGeneration(KarpenterRelease release) {
        Map<String, Set<PolicyStatements.Normalized>> expected =
                PolicyStatements.upstream(release.row().policy().template(), DEMO);
        if (!release.hasCapacityReservations()) {
            expected.replaceAll((group, statements) -> withoutCapacityReservations(statements));
        }

        Map<String, Set<PolicyStatements.Normalized>> actual = new LinkedHashMap<>();
        for (ControllerPolicy.Group group : ControllerPolicy.groups(release, DEMO)) {
            actual.put(
                    group.name(), PolicyStatements.fromDocument(group.document().toJson()));
        }

        assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        expected.forEach(
                (group, statements) -> assertThat(actual.get(group)).as(group).isEqualTo(statements));
    }

    /**
     * A release without capacity reservations gets none of the template's reservation permissions (upstream's
     * template gained them with reservations, in 1.3.0: #7726, #7801): neither the read nor the launch into one.
     */
    private static Set<PolicyStatements.Normalized> withoutCapacityReservations(
            Set<PolicyStatements.Normalized> statements) {
        Set<PolicyStatements.Normalized> without = new TreeSet<>(Comparator.comparing(PolicyStatements.Normalized::sid)
                .thenComparing(PolicyStatements.Normalized::toString));
        for (PolicyStatements.Normalized statement : statements) {
            SortedSet<String> actions = new TreeSet<>(statement.actions());
            actions.remove(CAPACITY_RESERVATION_READ);
            SortedSet<String> resources = new TreeSet<>(statement.resources());
            resources.removeIf(resource -> resource.endsWith(":capacity-reservation/*"));
            without.add(new PolicyStatements.Normalized(
                    statement.sid(), statement.effect(), actions, resources, statement.conditions()));
        }
        return without;
    }

    private static final String CAPACITY_RESERVATION_READ = "ec2:DescribeCapacityReservations";

    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void readsAndLaunchesIntoCapacityReservationsExactlyWhereTheReleaseHasThem(KarpenterRelease release) {
        List<IamPolicyDocument.Statement> statements = ControllerPolicy.groups(release, DEMO).stream()
                .flatMap(g -> g.statements().stream())
                .toList();

        assertThat(statements.stream().anyMatch(s -> s.actions().contains(CAPACITY_RESERVATION_READ)))
                .isEqualTo(release.hasCapacityReservations());
        assertThat(statements.stream()
                        .filter(s -> s.actions().contains("ec2:RunInstances"))
                        .anyMatch(s -> s.resources().contains("arn:aws:ec2:us-west-2:*:capacity-reservation/*")))
                .isEqualTo(release.hasCapacityReservations());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"v0.30.0, 5, 11", "v0.32.10, 5, 15", "0.37.8, 5, 16", "1.0.0, 6, 18"})
    void splitsIntoGroupsWithUniqueSids(String chartVersion, int groups, int statements) {
        List<ControllerPolicy.Group> split = ControllerPolicy.groups(KarpenterRelease.of(chartVersion), DEMO);

        assertThat(split).hasSize(groups);
        assertThat(split.stream()
                        .flatMap(g -> g.statements().stream())
                        .map(IamPolicyDocument.Statement::sid)
                        .distinct())
                .hasSize(statements);
    }

    @ParameterizedTest(name = "{0} grants iam:PassRole on the node role only")
    @MethodSource("releases")
    void passesOnlyTheNodeRole(KarpenterRelease release) {
        List<IamPolicyDocument.Statement> passRole = ControllerPolicy.groups(release, DEMO).stream()
                .flatMap(g -> g.statements().stream())
                .filter(s -> s.actions().contains("iam:PassRole"))
                .toList();

        assertThat(passRole)
                .singleElement()
                .satisfies(s -> assertThat(s.resources()).containsExactly(DEMO.nodeRoleArn()));
    }

    @ParameterizedTest(name = "{0} keeping {1}: both tag generations until retired")
    @CsvSource({"v0.32.10, v1alpha5, NodeLifecycleV1alpha5, v0.30.0", "1.0.14, v1beta1, NodeLifecycleV1beta1, 0.37.8"})
    void whileThePreviousGenerationIsKeptItsNodePermissionsStayAsOneMorePolicy(
            String chartVersion, String kept, String extraGroup, String previousTemplate) {
        KarpenterRelease release = KarpenterRelease.of(chartVersion);
        List<ControllerPolicy.Group> keeping = ControllerPolicy.groups(DeclaredApis.keeping(release), DEMO);
        List<ControllerPolicy.Group> retired =
                ControllerPolicy.groups(DeclaredApis.from(release, java.util.Optional.of(kept)), DEMO);

        assertThat(retired).isEqualTo(ControllerPolicy.groups(release, DEMO));
        assertThat(keeping.subList(0, retired.size())).isEqualTo(retired);
        assertThat(keeping).last().satisfies(group -> {
            assertThat(group.name()).isEqualTo(extraGroup);
            assertThat(PolicyStatements.fromDocument(group.document().toJson()))
                    .isEqualTo(PolicyStatements.upstream(previousTemplate, DEMO).get("NodeLifecycle"));
        });
    }

    /**
     * Every value at the longest the configuration or AWS allows, beyond what a valid configuration can reach
     * (cluster names stop at 50 because of the controller role name; 100 is EKS's own limit).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("releases")
    void everyPolicyStaysUnderTheManagedPolicyLimitForTheLongestNames(KarpenterRelease release) {
        String partition = "aws-us-gov";
        String region = "us-isob-centralwest-9";
        String account = "123456789012";
        String cluster = "c".repeat(100);
        String queue = "q".repeat(80);
        String nodeRoleArn = "arn:" + partition + ":iam::" + account + ":role/" + "p/".repeat(255) + "r".repeat(64);
        ControllerPolicy.Scope longest = new ControllerPolicy.Scope(
                partition,
                region,
                account,
                cluster,
                "arn:" + partition + ":eks:" + region + ":" + account + ":cluster/" + cluster,
                "arn:" + partition + ":sqs:" + region + ":" + account + ":" + queue,
                nodeRoleArn,
                "ec2.sc2s.sgov.gov");

        for (ControllerPolicy.Group group : ControllerPolicy.groups(release, longest)) {
            assertThat(iamSize(group)).as(group.name()).isLessThanOrEqualTo(MANAGED_POLICY_MAX);
        }
    }

    /** Characters IAM counts for the group's policy document as the app renders it (IAM ignores white space). */
    private static int iamSize(ControllerPolicy.Group group) {
        return group.document().toJson().replaceAll("\\s", "").length();
    }
}
