package dev.platform.karpenter.versions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.versions.UpgradeSteps.Deployed;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

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
    void theSeedsPathTo114PassesEveryStageAndRetiresEachOldGenerationBeforeLeavingIt() {
        List<String> steps =
                UpgradeSteps.path(deployed("v0.30.0", ApiGeneration.V1ALPHA5), KarpenterRelease.of("1.14.1")).stream()
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
                        "1.14.1");
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
        UpgradeSteps.Refusal refusal =
                check("v0.30.0", ApiGeneration.V1ALPHA5, "1.14.1").orElseThrow();

        assertThat(refusal.reason()).contains("no jump from v0.30.x to 1.14.x");
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

    @Test
    void allowsMovesWithinAStageAndDocumentedRollbacksOnly() {
        assertThat(check("1.14.1", ApiGeneration.V1, "1.2.0")).isEmpty();
        assertThat(check("v0.33.1", ApiGeneration.V1BETA1, "0.37.8")).isEmpty();
        assertThat(check("1.0.14", ApiGeneration.V1BETA1, "0.37.7")).isEmpty();
        assertThat(check("1.0.14", ApiGeneration.V1BETA1, "0.37.2")
                        .orElseThrow()
                        .advice())
                .isEqualTo("the next allowed step is 0.37.8");
        assertThat(check("1.14.1", ApiGeneration.V1, "0.37.8").orElseThrow().next())
                .isEqualTo(Optional.empty());
    }

    @Test
    void stationsTellApartWhatTheGuardNeeds() {
        assertThat(deployed("v0.33.5", ApiGeneration.V1BETA1).station()).isEqualTo("0.33/early/v1beta1");
        assertThat(deployed("v0.33.12", ApiGeneration.V1BETA1).station()).isEqualTo("0.33/latest/v1beta1");
        assertThat(UpgradeSteps.stations())
                .extracting(Deployed::station)
                .contains(
                        "0.30/early/v1alpha5",
                        "0.32/latest/v1alpha5",
                        "0.32/latest/v1beta1",
                        "1.0/early/v1beta1",
                        "1.0/latest/v1",
                        "1.14/latest/v1")
                .doesNotHaveDuplicates();
    }
}
