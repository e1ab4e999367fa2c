package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterMinor;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one reader of what was deployed: bin/upgrade-path reads back exactly the outputs the stacks record (as
 * synthesized), from the file the step guard reads them from; what it cannot read is one line.
 */
@KernelOnlyThroughSynthesized
class DeployedStateTest {
    @TempDir
    Path project;

    private final DeployedState local = DeployedState.of(TestConfigs.config(TestConfigs.V1));

    @Test
    void readsBackWhatTheIamStackRecords() throws IOException {
        ClusterConfig config = TestConfigs.config(TestConfigs.V1);
        Synthesized app = Synthesized.of(config);
        JsonNode iam = app.stack("demo-iam");
        writeState(
                iam.at("/output/karpenter_chart_version/value").asText(),
                iam.at("/output/karpenter_upgrade_station/value").asText());

        assertThat(local.read(project)).isEqualTo(Deployed.of(config.apis()));
        // and the guard of every stack reads the same outputs of the same file
        JsonNode guard = app.stack("demo-karpenter").at("/output/karpenter_step_guard/precondition");
        String outputs = "/" + project.relativize(stateFile()) + "\")).outputs.";
        assertThat(guard.path("condition").asText()).contains(outputs + "karpenter_upgrade_station.value");
        assertThat(guard.path("error_message").asText()).contains(outputs + "karpenter_chart_version.value");
    }

    @Test
    void readsEveryStationOfEveryMinor() throws IOException {
        for (KarpenterMinor minor : KarpenterMinor.all()) {
            KarpenterRelease release = minor.newestRelease();
            for (DeclaredApis apis : List.of(DeclaredApis.keeping(release), DeclaredApis.retiring(release))) {
                writeState(release.chartVersion(), Deployed.of(apis).station().key());

                assertThat(local.read(project)).as(apis.toString()).isEqualTo(Deployed.of(apis));
            }
        }
    }

    @Test
    void whatItCannotReadIsOneLineNamingWhatToPassInstead() throws IOException {
        assertThatThrownBy(() -> local.read(project))
                .isInstanceOf(ConfigException.class)
                .hasMessage("no state of demo-iam in " + project
                        + " (nothing deployed yet?): pass --from VERSION, or deploy karpenter_chart_version directly");

        Files.writeString(stateFile(), "");
        assertThatThrownBy(() -> local.read(project))
                .hasMessage(stateFile() + " has no output karpenter_chart_version"
                        + " (deployed by an earlier version of this project): pass --from VERSION");

        KarpenterRelease newest = KarpenterRelease.newest();
        KarpenterRelease oldest = KarpenterMinor.all().get(0).firstRelease();
        String otherMinors = oldest.row().major() + "." + oldest.row().minor() + "/early/v1alpha5";
        writeState(newest.chartVersion(), otherMinors);
        assertThatThrownBy(() -> local.read(project))
                .hasMessage(stateFile() + ": its output karpenter_upgrade_station \""
                        + otherMinors + "\" is no station of " + newest.chartVersion()
                        + "; pass --from VERSION --from-api GENERATION");

        DeployedState remote = DeployedState.of(
                TestConfigs.config(TestConfigs.V1, "state_bucket = \"tf-state\"", "state_region = \"eu-west-1\""));
        assertThatThrownBy(() -> remote.read(project))
                .hasMessage("the state of demo-nodepools is in s3://tf-state/karpenter/demo-nodepools.tfstate; pass"
                        + " --from with its output karpenter_chart_version (bin/cdktf output demo-nodepools)");
    }

    /**
     * A deploy of 0.37.8 whose IAM stack applied but whose node-pools stack did not: the cluster is still at 0.37.2,
     * as the node-pools stack (applied last) records, and 1.0 may not follow it yet.
     */
    @Test
    void theNodePoolsRecordWinsOverTheIamRecordAndTheIamRecordServesWithoutIt() throws IOException {
        Deployed done = new Deployed(KarpenterRelease.of("0.37.8"), ApiGeneration.V1BETA1);
        Deployed stillRunning = new Deployed(KarpenterRelease.of("0.37.2"), ApiGeneration.V1BETA1);
        writeState(done.release().chartVersion(), done.station().key());

        assertThat(local.read(project))
                .as("states written before the node-pools record")
                .isEqualTo(done);

        writeState(
                project.resolve("terraform.demo-nodepools.tfstate"),
                "0.37.2",
                stillRunning.station().key());

        assertThat(local.read(project)).isEqualTo(stillRunning);
        assertThat(UpgradeSteps.check(local.read(project), DeclaredApis.keeping(KarpenterRelease.of("1.0.14"))))
                .isPresent();
    }

    private Path stateFile() {
        return project.resolve("terraform.demo-iam.tfstate");
    }

    private void writeState(String version, String station) throws IOException {
        writeState(stateFile(), version, station);
    }

    private static void writeState(Path file, String version, String station) throws IOException {
        Files.writeString(file, """
                {"version": 4, "outputs": {
                  "karpenter_chart_version": {"value": "%s", "type": "string"},
                  "karpenter_upgrade_station": {"value": "%s", "type": "string"}}}
                """.formatted(version, station));
    }
}
