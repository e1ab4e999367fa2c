package dev.platform.karpenter.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path project;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @Test
    void prefersTheFileNamedByTheEnvironment() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        Files.writeString(project.resolve("other.tfvars"), TestConfigs.tfvars(TestConfigs.V1));

        Path source = ConfigLoader.locate(project, Map.of("KARPENTER_TFVARS", "other.tfvars"), new PrintStream(log));

        assertThat(source).isEqualTo(project.resolve("other.tfvars"));
        assertThat(log.toString()).contains("other.tfvars").contains("named by KARPENTER_TFVARS");
    }

    @Test
    void thenTheProjectsTerraformTfvarsThenTheExample() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars.example"), TestConfigs.tfvars(TestConfigs.V0));
        assertThat(ConfigLoader.locate(project, Map.of(), new PrintStream(log)))
                .isEqualTo(project.resolve("terraform.tfvars.example"));
        assertThat(log.toString()).contains("so the example");

        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        assertThat(ConfigLoader.locate(project, Map.of(), new PrintStream(log)))
                .isEqualTo(project.resolve("terraform.tfvars"));
    }

    @Test
    void aMissingNamedFileIsAnError() {
        assertThatThrownBy(() ->
                        ConfigLoader.locate(project, Map.of("KARPENTER_TFVARS", "nope.tfvars"), new PrintStream(log)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("KARPENTER_TFVARS names")
                .hasMessageContaining("does not exist");
    }

    @Test
    void aDirectoryHoldsOneClusterPerFileInNameOrder() throws IOException {
        Files.writeString(project.resolve("b-prod.tfvars"), TestConfigs.tfvarsFor("prod", "us-west-2", TestConfigs.V1));
        Files.writeString(
                project.resolve("a-staging.tfvars"), TestConfigs.tfvarsFor("staging", "us-west-2", TestConfigs.V0));
        Files.writeString(project.resolve("notes.txt"), "ignored");

        List<ClusterConfig> clusters = ConfigLoader.load(project);

        assertThat(clusters).extracting(ClusterConfig::clusterName).containsExactly("staging", "prod");
    }

    @Test
    void theStateBackendCanComeFromTheEnvironment() throws IOException {
        Path file = project.resolve("a.tfvars");
        Files.writeString(file, TestConfigs.tfvars(TestConfigs.V0, "state_bucket = \"from-file\""));

        ClusterConfig config = ConfigLoader.load(
                        file,
                        Map.of(
                                "KARPENTER_STATE_BUCKET",
                                "from-ci",
                                "KARPENTER_STATE_REGION",
                                "eu-central-1",
                                "KARPENTER_STATE_KEY_PREFIX",
                                "prod"))
                .get(0);

        assertThat(config.backend().bucket()).contains("from-ci");
        assertThat(config.backend().region()).isEqualTo("eu-central-1");
        assertThat(config.backend().keyPrefix()).isEqualTo("prod");
    }

    @Test
    void twoFilesForOneClusterAreAnError() throws IOException {
        Files.writeString(project.resolve("a.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        Files.writeString(project.resolve("b.tfvars"), TestConfigs.tfvars(TestConfigs.V1));

        assertThatThrownBy(() -> ConfigLoader.load(project))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("b.tfvars: cluster_name \"demo\" is also configured in");
    }

    @Test
    void errorsNameTheFile() throws IOException {
        Path file = project.resolve("bad.tfvars");
        Files.writeString(file, TestConfigs.tfvars(TestConfigs.V0, "colour = \"blue\""));

        assertThatThrownBy(() -> ConfigLoader.load(file))
                .hasMessage(file + ": unknown setting colour; terraform.tfvars.example lists every setting");
    }
}
