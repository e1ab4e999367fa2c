package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/upgrade-path's command: the steps, read from a real state file's outputs or given, and bad input. */
class UpgradePathCommandTest {
    @TempDir
    Path project;

    private final Console console = new Console();

    private int run(String... args) {
        return UpgradePathCommand.run(project, args, Map.of(), console.out(), console.err());
    }

    /** The one error line (stderr also says which tfvars file was read, as the app does). */
    private String errors() {
        return console.stderr()
                .lines()
                .filter(line -> !line.startsWith("karpenter-cdktf: reading"))
                .reduce((a, b) -> a + "\n" + b)
                .orElse("");
    }

    @Test
    void readsTheDeployedVersionFromTheIamStacksStateAndPrintsEveryStepTo114() throws IOException {
        Files.writeString(
                project.resolve("terraform.tfvars"),
                TestConfigs.tfvars("v0.30.0", "ttl_seconds_after_empty = 30", "consolidation = false"));
        Files.writeString(project.resolve("terraform.demo-iam.tfstate"), """
                {"version": 4, "outputs": {
                  "karpenter_chart_version": {"value": "v0.30.0", "type": "string"},
                  "karpenter_upgrade_station": {"value": "0.30/early/v1alpha5", "type": "string"}}}
                """);

        assertThat(run("--kubernetes", "1.29")).isZero();

        String text = console.stdout();
        assertThat(text)
                .startsWith("Karpenter v0.30.0 is deployed on cluster demo (pools declared as v1alpha5).\n"
                        + "7 steps to " + TestConfigs.V1 + ", each one change of the tfvars and one deploy");
        assertThat(text.lines().filter(line -> line.matches("[0-9]+\\. .*")))
                .containsExactly(
                        "1. karpenter_chart_version = \"v0.31.5\"",
                        "2. karpenter_chart_version = \"v0.32.10\", keeping the v1alpha5 objects (retired_api not \"v1alpha5\")",
                        "3. karpenter_chart_version = \"v0.32.10\", retired_api = \"v1alpha5\"",
                        "4. karpenter_chart_version = \"0.37.8\"",
                        "5. karpenter_chart_version = \"1.0.14\", keeping the v1beta1 objects (retired_api not \"v1beta1\")",
                        "6. karpenter_chart_version = \"1.0.14\", retired_api = \"v1beta1\"",
                        "7. karpenter_chart_version = \"" + TestConfigs.V1 + "\"");
        assertThat(text)
                .contains("   Kubernetes 1.23 to 1.28 (the cluster runs 1.29: OUTSIDE, see below)")
                .contains("   Pools: NodePool + EC2NodeClass (karpenter.sh/v1beta1) (was Provisioner + AWSNodeTemplate"
                        + " (karpenter.sh/v1alpha5) beside NodePool + EC2NodeClass (karpenter.sh/v1beta1))")
                .contains("added NodeLifecycleV1alpha5")
                .contains("removed NodeLifecycleV1alpha5; the instance profile is deleted")
                .contains("kubectl get nodes -l karpenter.sh/provisioner-name prints nothing")
                .contains("prints only v1")
                .contains("a) take this step anyway: add upgrade_override = \"v0.31.5\"")
                .contains("b) install " + TestConfigs.V1
                        + " fresh, keeping IAM and the queue: bin/cdktf destroy"
                        + " demo-nodepools demo-karpenter")
                // the tfvars' ttl_seconds_after_empty stops holding once no Provisioner is declared
                .contains("Your other settings do not hold for this step: ttl_seconds_after_empty applies to Karpenter"
                        + " 0.30 to 0.32 (v1alpha5 Provisioners) only");
        assertThat(text).contains("   Kubernetes 1.26 to 1.36 (the cluster's 1.29: fits)");
    }

    @Test
    void takesTheDeployedVersionFromTheCommandLine() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars("0.37.8"));

        assertThat(run("--from", "v0.33.5", "--to", "1.0.14")).isZero();

        assertThat(console.stdout().lines().filter(line -> line.matches("[0-9]+\\. .*")))
                .containsExactly(
                        "1. karpenter_chart_version = \"v0.33.12\"",
                        "2. karpenter_chart_version = \"1.0.14\", keeping the v1beta1 objects (retired_api not \"v1beta1\")");
    }

    @Test
    void aSpecOfTheTargetsGenerationIsCheckedAtEveryStep() throws IOException {
        // v1 moved expireAfter from disruption into template.spec: the 1.0 step still declares the pools as v1beta1.
        Files.writeString(
                project.resolve("terraform.tfvars"),
                TestConfigs.tfvars(
                        TestConfigs.V1, "node_pool_spec = { template = { spec = { expireAfter = \"336h\" } } }"));

        assertThat(run("--from", "0.37.8")).isZero();

        assertThat(console.stdout())
                .contains("Your other settings do not hold for this step: node_pool_spec.template.spec.expireAfter:"
                        + " unknown field");
    }

    @Test
    void namesTheUsersFieldsThatMoveAtTheStepThatDeclaresTheNextGeneration() throws IOException {
        String lastV1beta1 = KarpenterMinor.V0_37.newestRelease().chartVersion();
        Files.writeString(
                project.resolve("terraform.tfvars"),
                TestConfigs.tfvars(lastV1beta1, "node_pool_spec = { disruption = { expireAfter = \"720h\" } }"));

        assertThat(run("--from", lastV1beta1)).isZero();

        assertThat(console.stdout())
                .contains("\n   Your fields that move:\n"
                        + "     node_pool_spec.disruption.expireAfter -> node_pool_spec.template.spec.expireAfter"
                        + " (changing it now drifts the nodes)\n"
                        + "   Your other settings do not hold for this step: node_pool_spec.disruption.expireAfter:"
                        + " unknown field");
    }

    @Test
    void badInputIsOneLineAndStatus2() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V1));

        assertThat(run()).isEqualTo(2);
        assertThat(errors()).startsWith("error: no state of demo-iam in ");
        console.reset();
        assertThat(run("--from", TestConfigs.V1, "--to", "0.37.8")).isEqualTo(2);
        assertThat(errors())
                .isEqualTo("error: no supported way from Karpenter " + TestConfigs.V1 + " to"
                        + " 0.37.8: Karpenter 0.37.x cannot read what " + TestConfigs.V1_SERIES
                        + " stores; upstream rolls back one stage only");
        console.reset();
        assertThat(run("--kubernetes", "129")).isEqualTo(2);
        assertThat(errors()).startsWith("error: --kubernetes");
        console.reset();
        Files.createDirectories(project.resolve("clusters"));
        assertThat(run(project.resolve("clusters").toString())).isEqualTo(2);
        assertThat(errors()).contains("is a directory: bin/upgrade-path walks one cluster; name its file");
    }
}
