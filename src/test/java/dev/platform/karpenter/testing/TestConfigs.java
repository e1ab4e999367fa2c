package dev.platform.karpenter.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.TfvarsFile;
import dev.platform.karpenter.release.KarpenterRelease;
import java.nio.file.Path;

/** Cluster configurations for tests, written as tfvars text so they go through the real parser and validation. */
public final class TestConfigs {
    public static final String V0 = "v0.30.0";
    /** The newest supported release, as the registry spells it; its minor series ("1.10.x" for 1.10) and key ("1.10"). */
    public static final String V1 = KarpenterRelease.newest().chartVersion();

    public static final String V1_SERIES = KarpenterRelease.newest().minorSeries();
    public static final String V1_MINOR =
            KarpenterRelease.newest().major() + "." + KarpenterRelease.newest().minor();

    private TestConfigs() {}

    /** The required settings for cluster "demo" in us-west-2 at {@code chartVersion}, plus {@code extraLines}. */
    public static String tfvars(String chartVersion, String... extraLines) {
        return tfvarsFor("demo", "us-west-2", chartVersion, extraLines);
    }

    /** The required settings for {@code clusterName} in {@code region} at {@code chartVersion}, plus {@code extraLines}. */
    public static String tfvarsFor(String clusterName, String region, String chartVersion, String... extraLines) {
        StringBuilder text = new StringBuilder()
                .append("cluster_name = \"")
                .append(clusterName)
                .append("\"\n")
                .append("region = \"")
                .append(region)
                .append("\"\n")
                .append("karpenter_chart_version = \"")
                .append(chartVersion)
                .append("\"\n");
        for (String line : extraLines) {
            text.append(line).append('\n');
        }
        return text.toString();
    }

    public static ClusterConfig config(String chartVersion, String... extraLines) {
        return parse(tfvars(chartVersion, extraLines));
    }

    public static ClusterConfig configFor(
            String clusterName, String region, String chartVersion, String... extraLines) {
        return parse(tfvarsFor(clusterName, region, chartVersion, extraLines));
    }

    /**
     * The shipped example and the reference configurations of src/test/resources/reference-configs, one cluster each:
     * between them, every kind of stack, identity, node role and state backend a test of the whole app should see.
     */
    public static ClusterConfig[] referenceConfigurations() {
        Path configs = Path.of("src/test/resources/reference-configs");
        return new ClusterConfig[] {
            ConfigLoader.read(Path.of("terraform.tfvars.example")),
            ConfigLoader.read(configs.resolve("v1-pod-identity.tfvars")),
            ConfigLoader.read(configs.resolve("v1-10-irsa.tfvars")),
            ConfigLoader.read(configs.resolve("v0-31-prefix.tfvars"))
        };
    }

    /** Parses tfvars text that replaces the defaults entirely (e.g. to change cluster_name). */
    public static ClusterConfig parse(String tfvarsText) {
        return ConfigLoader.fromVariables(TfvarsFile.parse(tfvarsText));
    }

    /** Parsing {@code tfvarsText} fails with a one-line error that contains {@code expectedMessage}. */
    public static void assertRejected(String tfvarsText, String expectedMessage) {
        assertThatThrownBy(() -> parse(tfvarsText))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(expectedMessage)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
