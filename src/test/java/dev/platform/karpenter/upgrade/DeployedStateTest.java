package dev.platform.karpenter.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
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
 * The one reader of what was deployed: bin/upgrade-path reads back exactly the outputs the IAM stack records (as
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
                .hasMessage("the state of demo-iam is in s3://tf-state/karpenter/demo-iam.tfstate; pass --from with"
                        + " its output karpenter_chart_version (bin/cdktf output demo-iam)");
    }

    private Path stateFile() {
        return project.resolve("terraform.demo-iam.tfstate");
    }

    private void writeState(String version, String station) throws IOException {
        Files.writeString(stateFile(), """
                {"version": 4, "outputs": {
                  "karpenter_chart_version": {"value": "%s", "type": "string"},
                  "karpenter_upgrade_station": {"value": "%s", "type": "string"}}}
                """.formatted(version, station));
    }
}
