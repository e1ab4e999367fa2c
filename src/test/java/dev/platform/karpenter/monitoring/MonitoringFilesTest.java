package dev.platform.karpenter.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The synth output holds each cluster's monitoring files beside its controller stack. */
@KernelOnlyThroughSynthesized
class MonitoringFilesTest {
    private static final ClusterConfig EXAMPLE = ConfigLoader.read(Path.of("terraform.tfvars.example"));

    @RegisterExtension
    static final Synthesized APP = Synthesized.app()
            .cluster(EXAMPLE)
            .cluster("seed", "v0.30.0")
            .cluster("demo", TestConfigs.V1)
            .synthesize();

    @Test
    void rulesFileOfTheClustersReleaseSitsBesideTheControllerStack() throws IOException {
        Path seed = APP.stackDir("seed-karpenter").resolve("monitoring/karpenter-rules.yaml");
        Path demo = APP.stackDir("demo-karpenter").resolve("monitoring/karpenter-rules.yaml");

        assertThat(Files.readString(seed)).isEqualTo(AlertRules.rulesFile(KarpenterRelease.of("v0.30.0")));
        assertThat(Files.readString(demo)).isEqualTo(AlertRules.rulesFile(KarpenterRelease.of(TestConfigs.V1)));
        assertThat(Files.readString(seed))
                .contains("karpenter_provisioner_usage")
                .doesNotContain("nodepools_usage");
        assertThat(Files.readString(demo)).contains("karpenter_nodepools_usage");
    }

    @Test
    void theExamplesOutputHoldsTheRulesFileAndBothDashboards() throws IOException {
        Path monitoring = APP.stackDir(EXAMPLE.stackName("karpenter")).resolve("monitoring");

        assertThat(Files.readString(monitoring.resolve(MonitoringFiles.RULES_FILE)))
                .isEqualTo(AlertRules.rulesFile(EXAMPLE.release()));
        assertThat(monitoring.resolve(Dashboards.CAPACITY_FILE)).isRegularFile();
        assertThat(monitoring.resolve(Dashboards.DISRUPTION_FILE)).isRegularFile();
    }

    @Test
    void dashboardsSitBesideTheRules() throws IOException {
        KarpenterRelease release = KarpenterRelease.of(TestConfigs.V1);
        for (Dashboards.Dashboard dashboard : Dashboards.of(release)) {
            Path file = APP.stackDir("demo-karpenter").resolve("monitoring").resolve(dashboard.file());
            assertThat(Files.readString(file)).isEqualTo(Dashboards.json(dashboard, release));
        }
        assertThat(APP.stackDir("seed-karpenter").resolve("monitoring/" + Dashboards.CAPACITY_FILE))
                .content()
                .contains("karpenter_cloudprovider_instance_type_price_estimate");
    }
}
