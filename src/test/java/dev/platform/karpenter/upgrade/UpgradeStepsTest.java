package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

@KernelOnlyThroughSynthesized
class UpgradeStepsTest {

    private static Deployed deployed(String version, ApiGeneration oldest) {
        return new Deployed(KarpenterRelease.of(version), oldest);
    }

    private static DeclaredApis to(String version) {
        return DeclaredApis.keeping(KarpenterRelease.of(version));
    }

    /** What {@link UpgradeSteps#check} says of a step from {@code version} (oldest objects {@code oldest}). */
    private static Optional<UpgradeSteps.Refusal> check(String version, ApiGeneration oldest, String target) {
        return UpgradeSteps.check(deployed(version, oldest), to(target));
    }

    @Test
    void theSeedsPathToTheNewestPassesEveryStageAndRetiresEachOldGenerationBeforeLeavingIt() {
        List<String> steps =
                UpgradeSteps.path(deployed("v0.30.0", ApiGeneration.V1ALPHA5), KarpenterRelease.newest()).stream()
                        .map(UpgradeSteps::describe)
                        .toList();

        assertThat(steps)
                .containsExactly(
                        "v0.31.5",
                        "v0.32.10 keeping the v1alpha5 objects",
                        "v0.32.10 with retired_api = \"v1alpha5\"",
                        "0.37.8",
                        "1.0.14 keeping the v1beta1 objects",
                        "1.0.14 with retired_api = \"v1beta1\"",
                        KarpenterRelease.newest().chartVersion());
    }

    @Test
    void eachStepOfThePathIsAllowedAfterTheOneBefore() {
        Deployed current = deployed("v0.31.2", ApiGeneration.V1ALPHA5);
        for (DeclaredApis step : UpgradeSteps.path(current, KarpenterRelease.of("1.5.0"))) {
            assertThat(UpgradeSteps.check(current, step))
                    .as(UpgradeSteps.describe(step))
                    .isEmpty();
            current = Deployed.of(step);
        }
        assertThat(current.release()).isEqualTo(KarpenterRelease.of("1.5.0"));
    }

    @Test
    void refusesTheSeedJumpingStraightTo1xNamingV0315() {
        KarpenterRelease newest = KarpenterRelease.newest();
        UpgradeSteps.Refusal refusal =
                check("v0.30.0", ApiGeneration.V1ALPHA5, newest.chartVersion()).orElseThrow();

        assertThat(refusal.reason())
                .isEqualTo("upstream allows no jump from v0.30.x to " + newest.minorSeries()
                        + "; the path passes v0.31.4+, v0.32.x, a latest 0.33-0.37 patch, then 1.0.x");
        assertThat(refusal.advice()).isEqualTo("the next allowed step is v0.31.5");
    }

    @Test
    void refuses1_0FromAnOlderPatchNamingTheLatestPatchOfTheMinor() {
        UpgradeSteps.Refusal refusal =
                check("v0.33.5", ApiGeneration.V1BETA1, "1.0.14").orElseThrow();

        assertThat(refusal.reason()).contains("latest patch").contains("v0.33.12");
        assertThat(refusal.advice()).isEqualTo("the next allowed step is v0.33.12");
        assertThat(check("v0.33.12", ApiGeneration.V1BETA1, "1.0.14")).isEmpty();
        assertThat(check("0.37.7", ApiGeneration.V1BETA1, "1.0.14")).isEmpty();
    }

    @Test
    void refuses1_1WhileThePoolsAreStillDeclaredAsV1beta1() {
        UpgradeSteps.Refusal refusal =
                check("1.0.14", ApiGeneration.V1BETA1, "1.1.0").orElseThrow();

        assertThat(refusal.reason()).contains("no longer serve v1beta1");
        assertThat(refusal.advice())
                .isEqualTo("the next allowed step is the deployed release again with retired_api = \"v1beta1\"");
        assertThat(check("1.0.14", ApiGeneration.V1, "1.1.0")).isEmpty();
        assertThat(check("1.0.5", ApiGeneration.V1, "1.1.0")).isPresent();
    }

    @Test
    void refusesLeaving032WithProvisionersDeclared() {
        assertThat(check("v0.32.10", ApiGeneration.V1ALPHA5, "0.37.8")
                        .orElseThrow()
                        .advice())
                .isEqualTo("the next allowed step is the deployed release again with retired_api = \"v1alpha5\"");
        assertThat(check("v0.32.10", ApiGeneration.V1BETA1, "0.37.8")).isEmpty();
        assertThat(check("v0.31.3", ApiGeneration.V1ALPHA5, "v0.32.10")).isPresent();
        assertThat(check("v0.31.4", ApiGeneration.V1ALPHA5, "v0.32.10")).isEmpty();
    }

    /** Retiring the old objects in the upgrade that starts serving their successor drains every node at once. */
    @Test
    void refusesRetiringTheOldGenerationInTheUpgradeThatBringsItsSuccessor() {
        UpgradeSteps.Refusal to032 = UpgradeSteps.check(
                        deployed("v0.31.5", ApiGeneration.V1ALPHA5),
                        DeclaredApis.retiring(KarpenterRelease.of("v0.32.10")))
                .orElseThrow();
        UpgradeSteps.Refusal to10 = UpgradeSteps.check(
                        deployed("0.37.8", ApiGeneration.V1BETA1), DeclaredApis.retiring(KarpenterRelease.of("1.0.14")))
                .orElseThrow();

        assertThat(to032.reason())
                .isEqualTo("0.32 serves v1alpha5 beside v1beta1 so that the pools move over while it runs: deploy it"
                        + " keeping the v1alpha5 objects, then retire them in a deploy of their own");
        assertThat(to032.advice()).isEqualTo("the next allowed step is v0.32.10 keeping the v1alpha5 objects");
        assertThat(to10.advice()).isEqualTo("the next allowed step is 1.0.14 keeping the v1beta1 objects");
        assertThat(UpgradeSteps.check(
                        deployed("0.37.8", ApiGeneration.V1BETA1),
                        new DeclaredApis(KarpenterRelease.of("1.0.14"), Optional.of(ApiGeneration.V1ALPHA5))))
                .as("retired_api = \"v1alpha5\" at 1.0 keeps the v1beta1 pools")
                .isEmpty();
        assertThat(UpgradeSteps.check(
                        deployed("v0.32.10", ApiGeneration.V1ALPHA5),
                        DeclaredApis.retiring(KarpenterRelease.of("v0.32.10"))))
                .as("retiring in a deploy of its own")
                .isEmpty();
    }

    /** Upstream's upgrade guide, v0.36.0: rolling back from it needs v0.32.9+, v0.33.4+, v0.34.5+ or v0.35.4+. */
    @Test
    void rollsBackFrom036OnToDriftSafePatchesOnly() {
        UpgradeSteps.Refusal to033 =
                check("0.37.8", ApiGeneration.V1BETA1, "v0.33.1").orElseThrow();

        assertThat(to033.reason())
                .isEqualTo("upstream rolls 0.37.x back to v0.33.x from v0.33.4 on only: an older patch computes drift"
                        + " otherwise and can replace every node");
        assertThat(to033.advice()).isEqualTo("the next allowed step is v0.33.12");
        assertThat(check("0.36.9", ApiGeneration.V1BETA1, "v0.32.8")).isPresent();
        assertThat(check("0.36.9", ApiGeneration.V1BETA1, "v0.32.9")).isEmpty();
        assertThat(check("0.36.9", ApiGeneration.V1BETA1, "v0.34.4")).isPresent();
        assertThat(check("0.36.9", ApiGeneration.V1BETA1, "0.35.4")).isEmpty();
        assertThat(check("0.35.12", ApiGeneration.V1BETA1, "v0.33.1"))
                .as("before 0.36")
                .isEmpty();
        assertThat(check("v0.33.1", ApiGeneration.V1BETA1, "0.37.8"))
                .as("upward")
                .isEmpty();
    }

    @Test
    void allowsMovesWithinAStageAndDocumentedRollbacksOnly() {
        String newest = KarpenterRelease.newest().chartVersion();
        assertThat(check(newest, ApiGeneration.V1, "1.2.0")).isEmpty();
        assertThat(check("v0.33.1", ApiGeneration.V1BETA1, "0.37.8")).isEmpty();
        assertThat(check("1.0.14", ApiGeneration.V1BETA1, "0.37.7")).isEmpty();
        assertThat(check("1.0.14", ApiGeneration.V1BETA1, "0.37.2")
                        .orElseThrow()
                        .advice())
                .isEqualTo("the next allowed step is 0.37.8");
        assertThat(check(newest, ApiGeneration.V1, "0.37.8").orElseThrow().next())
                .isEqualTo(Optional.empty());
    }

    @Test
    void rollsBackFrom032ToV0314AndLaterOnly() {
        UpgradeSteps.Refusal toTheSeed =
                check("v0.32.10", ApiGeneration.V1BETA1, "v0.30.0").orElseThrow();
        UpgradeSteps.Refusal toAnEarly031 =
                check("v0.32.10", ApiGeneration.V1BETA1, "v0.31.2").orElseThrow();

        assertThat(toTheSeed.reason())
                .isEqualTo("upstream rolls v0.32.x back to v0.31.4 or later only, not to v0.30.x");
        assertThat(toTheSeed.advice()).isEqualTo("the next allowed step is v0.31.5");
        assertThat(toAnEarly031.reason()).isEqualTo("upstream rolls v0.32.x back to v0.31.x from v0.31.4 on only");
        assertThat(toAnEarly031.advice()).isEqualTo("the next allowed step is v0.31.5");
        assertThat(check("v0.32.10", ApiGeneration.V1BETA1, "v0.31.4")).isEmpty();
    }

    /** The first, the step and the newest patch of every supported minor, each with the old objects kept and retired. */
    private static List<DeclaredApis> everyKindOfDeploy() {
        Set<DeclaredApis> deploys = new LinkedHashSet<>();
        for (KarpenterMinor minor : KarpenterMinor.all()) {
            Set<KarpenterRelease> releases = new LinkedHashSet<>(List.of(minor.firstRelease(), minor.newestRelease()));
            minor.firstStepRelease().ifPresent(releases::add);
            for (KarpenterRelease release : releases) {
                deploys.add(DeclaredApis.keeping(release));
                deploys.add(DeclaredApis.retiring(release));
            }
        }
        return List.copyOf(deploys);
    }

    /**
     * Every move between supported releases, forward and back: a refusal names a real, supported release as the
     * next step (or says there is no way), that step is allowed, and following the advice reaches an allowed move
     * without going round.
     */
    @Test
    void everyRefusalAdvisesARealReleaseAndFollowingTheAdviceGetsThere() {
        List<DeclaredApis> deploys = everyKindOfDeploy();
        List<String> problems = new ArrayList<>();
        int refusals = 0;
        for (DeclaredApis deployed : deploys) {
            for (DeclaredApis to : deploys) {
                Deployed current = Deployed.of(deployed);
                Set<Deployed> visited = new LinkedHashSet<>(List.of(current));
                Optional<UpgradeSteps.Refusal> refusal = UpgradeSteps.check(current, to);
                while (refusal.isPresent() && problems.isEmpty()) {
                    refusals++;
                    Optional<String> problem = problem(refusal.get(), current, visited);
                    if (problem.isPresent()) {
                        problems.add(UpgradeSteps.describe(deployed) + " -> " + UpgradeSteps.describe(to) + " at "
                                + current + ": " + refusal.get().reason() + "; "
                                + refusal.get().advice() + ": "
                                + problem.get());
                    }
                    if (refusal.get().next().isEmpty()) {
                        break;
                    }
                    current = Deployed.of(refusal.get().next().get());
                    refusal = UpgradeSteps.check(current, to);
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(refusals).isGreaterThan(deploys.size());
    }

    /** What is wrong with {@code refusal} of a move from {@code current}, having come by {@code visited}. */
    private static Optional<String> problem(UpgradeSteps.Refusal refusal, Deployed current, Set<Deployed> visited) {
        if ((refusal.reason() + refusal.advice()).contains("null")) {
            return Optional.of("names null");
        }
        if (refusal.next().isEmpty()) {
            return refusal.advice().equals("no supported way leads there from the deployed release")
                    ? Optional.empty()
                    : Optional.of("advice without a next step");
        }
        DeclaredApis next = refusal.next().get();
        if (!isReal(next.release())) {
            return Optional.of(next.release() + " is no supported release");
        }
        if (!refusal.advice().equals(advice(refusal))) {
            return Optional.of("the advice does not name " + UpgradeSteps.describe(next));
        }
        if (UpgradeSteps.check(current, next).isPresent()) {
            return Optional.of("the advice itself is refused");
        }
        return visited.add(Deployed.of(next)) ? Optional.empty() : Optional.of("the advice goes round " + visited);
    }

    /** A release of a supported minor, at most its newest patch, spelled as the registry does. */
    private static boolean isReal(KarpenterRelease release) {
        return KarpenterMinor.of(release.major(), release.minor())
                .filter(minor -> release.patch() <= minor.newestRelease().patch())
                .filter(minor -> KarpenterRelease.of(release.chartVersion()).equals(release))
                .isPresent();
    }

    private static String advice(UpgradeSteps.Refusal refusal) {
        DeclaredApis next = refusal.next().orElseThrow();
        return refusal.again()
                ? "the next allowed step is the deployed release again with retired_api = \""
                        + DeclaredApis.spelling(next.retired().orElseThrow()) + "\""
                : "the next allowed step is " + UpgradeSteps.describe(next);
    }

    @Test
    void stationsTellApartWhatTheGuardNeeds() {
        assertThat(deployed("v0.33.5", ApiGeneration.V1BETA1).station().key()).isEqualTo("0.33/early/v1beta1");
        assertThat(deployed("v0.33.12", ApiGeneration.V1BETA1).station().key()).isEqualTo("0.33/latest/v1beta1");
        assertThat(UpgradeSteps.stations())
                .extracting(UpgradeStation::key)
                .contains(
                        "0.30/early/v1alpha5",
                        "0.32/latest/v1alpha5",
                        "0.32/latest/v1beta1",
                        "1.0/early/v1beta1",
                        "1.0/latest/v1",
                        KarpenterRelease.newest().major() + "."
                                + KarpenterRelease.newest().minor() + "/latest/v1")
                .doesNotHaveDuplicates();
    }

    @Test
    void aStationIsReadBackFromItsKey() {
        for (UpgradeStation station : UpgradeSteps.stations()) {
            assertThat(UpgradeStation.parse(station.key())).contains(station);
            assertThat(station.representative().station()).isEqualTo(station);
        }
        assertThat(UpgradeStation.parse("0.29/latest/v1alpha5")).isEmpty();
        assertThat(UpgradeStation.parse("0.33/latest/v2")).isEmpty();
        assertThat(UpgradeStation.parse("")).isEmpty();
    }
}
