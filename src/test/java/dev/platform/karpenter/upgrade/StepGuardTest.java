package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import org.junit.jupiter.api.Test;

/** The guard as synthesized: what the IAM stack records, and the read-back and postcondition in every stack. */
@KernelOnlyThroughSynthesized
class StepGuardTest {
    private static final Synthesized LOCAL = Synthesized.of(TestConfigs.config(TestConfigs.V1));

    /** The node-pools stack, applied last, so that a deploy that failed on the way is not recorded as done. */
    @Test
    void theNodePoolsAndIamStacksRecordTheVersionAndStation() {
        for (String stack : new String[] {"demo-nodepools", "demo-iam"}) {
            JsonNode outputs = LOCAL.stack(stack).path("output");

            assertThat(outputs.at("/karpenter_chart_version/value").asText())
                    .as(stack)
                    .isEqualTo(TestConfigs.V1);
            assertThat(outputs.at("/karpenter_upgrade_station/value").asText())
                    .as(stack)
                    .isEqualTo(TestConfigs.V1_MINOR + "/latest/v1");
        }
        assertThat(LOCAL.stack("demo-karpenter")
                        .at("/output/karpenter_upgrade_station")
                        .isMissingNode())
                .isTrue();
    }

    @Test
    void everyStackReadsTheNodePoolsThenTheIamStacksStateAndChecksTheStepInAnOutputPrecondition() {
        String file = "jsondecode(file(\"../../terraform.demo-iam.tfstate\")).outputs.";
        for (String stack : new String[] {"demo-iam", "demo-interruption", "demo-karpenter", "demo-nodepools"}) {
            JsonNode guard = LOCAL.stack(stack).at("/output/karpenter_step_guard");
            assertThat(guard.path("value").asText()).as(stack).isEqualTo(TestConfigs.V1);
            assertThat(guard.at("/precondition/condition").asText())
                    .isEqualTo("${lookup(local.karpenter_upgrade_refusals, try(coalesce(" + recorded("nodepools") + ", "
                            + recorded("iam") + "), \"\"), \"\") == \"\"}");
            assertThat(guard.at("/precondition/error_message").asText())
                    .startsWith("Karpenter ${try(coalesce(fileexists(")
                    .contains(file + "karpenter_chart_version.value")
                    .contains("is deployed (read back from the state of demo-nodepools, else demo-iam): ");
            JsonNode refusals = LOCAL.stack(stack).at("/locals/karpenter_upgrade_refusals");
            assertThat(refusals.path("0.30/early/v1alpha5").asText())
                    .isEqualTo(
                            "karpenter_chart_version " + TestConfigs.V1 + " cannot follow it:"
                                    + " upstream allows no jump from v0.30.x to " + TestConfigs.V1_SERIES
                                    + "; the path passes v0.31.4+, v0.32.x, a latest 0.33-0.37"
                                    + " patch, then 1.0.x; the next allowed step is v0.31.5 (bin/upgrade-path prints the whole way)");
            assertThat(refusals.path("1.0/latest/v1beta1").asText())
                    .contains("the next allowed step is the deployed release again with retired_api = \"v1beta1\"");
            assertThat(refusals.has("1.0/latest/v1"))
                    .as("1.0.6+ with v1 pools may go on")
                    .isFalse();
            assertThat(refusals.has("1.5/latest/v1")).isFalse();
        }
    }

    /** An adopted installation: until the stacks record a deploy, adopt.chart_version is the deployed release. */
    @Test
    void anAdoptedReleaseIsTheDeployedOneUntilTheStacksRecordOne() {
        JsonNode stack = Synthesized.of(TestConfigs.config(TestConfigs.V1, "adopt = { chart_version = \"v0.30.0\" }"))
                .stack("demo-karpenter");
        JsonNode guard = stack.at("/output/karpenter_step_guard");

        assertThat(guard.at("/precondition/condition").asText())
                .isEqualTo("${lookup(local.karpenter_upgrade_refusals, coalesce(" + recorded("nodepools") + ", "
                        + recorded("iam") + ", \"0.30/early/v1alpha5\"), \"\") == \"\"}");
        assertThat(guard.at("/precondition/error_message").asText())
                .contains(", \"v0.30.0\")} is deployed (read back from the state of demo-nodepools, else demo-iam,"
                        + " else adopt.chart_version): ");
        assertThat(stack.at("/locals/karpenter_upgrade_refusals")
                        .path("0.30/early/v1alpha5")
                        .asText())
                .contains("upstream allows no jump from v0.30.x to " + TestConfigs.V1_SERIES);
        assertThat(UpgradeSteps.check(
                        DeployedState.of(TestConfigs.config("1.0.14", "adopt = { chart_version = \"1.0.14\" }"))
                                .read(java.nio.file.Path.of("/nonexistent")),
                        DeclaredApis.keeping(KarpenterRelease.of("1.1.0"))))
                .as("an adopted 1.0 is taken to declare v1beta1 pools until retired")
                .isPresent();
    }

    /** The local state file of the demo cluster's {@code concern} stack, its station output or "" without one. */
    private static String recorded(String concern) {
        String file = "\"../../terraform.demo-" + concern + ".tfstate\"";
        return "fileexists(" + file + ") ? try(jsondecode(file(" + file
                + ")).outputs.karpenter_upgrade_station.value, \"\") : \"\"";
    }

    @Test
    void withS3StateTheGuardFirstListsTheStateObjectInTheBucketsRegion() {
        JsonNode stack = Synthesized.of(TestConfigs.config(
                        TestConfigs.V1, "state_bucket = \"tf-state\"", "state_region = \"eu-west-1\""))
                .stack("demo-karpenter");

        for (String[] source : new String[][] {{"last", "nodepools"}, {"first", "iam"}}) {
            String key = "karpenter/demo-" + source[1] + ".tfstate";
            JsonNode objects = stack.at("/data/aws_s3_objects/karpenter_deployed_state_object_" + source[0]);
            assertThat(objects.path("bucket").asText()).isEqualTo("tf-state");
            assertThat(objects.path("prefix").asText()).isEqualTo(key);
            assertThat(objects.path("provider").asText()).isEqualTo("aws.state");
            JsonNode state = stack.at("/data/terraform_remote_state/karpenter_deployed_release_" + source[0]);
            assertThat(state.path("backend").asText()).isEqualTo("s3");
            assertThat(state.at("/config/key").asText()).isEqualTo(key);
            assertThat(state.path("count").asText())
                    .isEqualTo("${contains(data.aws_s3_objects.karpenter_deployed_state_object_" + source[0]
                            + ".keys, \"" + key + "\") ? 1 : 0}");
            assertThat(stack.at("/output/karpenter_step_guard/precondition/condition")
                            .asText())
                    .contains("try(data.terraform_remote_state.karpenter_deployed_release_" + source[0]
                            + "[0].outputs.karpenter_upgrade_station, \"\")");
        }
        assertThat(stack.at("/provider/aws").findValuesAsText("region")).contains("eu-west-1");
        assertThat(stack.at("/provider/aws").findValuesAsText("alias")).containsOnlyOnce("state");
    }

    @Test
    void upgradeOverrideWaivesTheGuardAndTheKubernetesRangeCheckForItsVersionOnly() {
        Synthesized overridden =
                Synthesized.of(TestConfigs.config(TestConfigs.V1, "upgrade_override = \"" + TestConfigs.V1 + "\""));

        assertThat(overridden
                        .stack("demo-iam")
                        .at("/output/karpenter_step_guard")
                        .isMissingNode())
                .isTrue();
        assertThat(overridden
                        .stack("demo-iam")
                        .at("/output/karpenter_chart_version/value")
                        .asText())
                .isEqualTo(TestConfigs.V1);
        for (String stack : new String[] {"demo-iam", "demo-karpenter"}) {
            assertThat(overridden.stack(stack).at("/data/aws_eks_cluster").toString())
                    .as(stack)
                    .doesNotContain("supports Kubernetes");
            assertThat(LOCAL.stack(stack).at("/data/aws_eks_cluster").toString())
                    .as(stack)
                    .contains("supports Kubernetes");
        }
    }
}
