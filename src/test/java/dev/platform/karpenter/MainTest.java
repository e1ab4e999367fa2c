package dev.platform.karpenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path project;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void badInputExitsNonZeroWithOneLineAndWritesNothing() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars("v0.38.0"));

        int status = Main.run(project, Map.of("CDKTF_OUTDIR", "out"), new PrintStream(err));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString().lines().filter(l -> l.startsWith("error:")))
                .singleElement().asString().contains("karpenter_chart_version \"v0.38.0\"");
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("terraform.tfvars");
        }
    }

    @Test
    void aBadClusterInADirectoryStopsEveryCluster() throws IOException {
        Path dir = Files.createDirectory(project.resolve("clusters"));
        Files.writeString(dir.resolve("a.tfvars"), TestConfigs.tfvarsFor("a", "us-west-2", TestConfigs.V0));
        Files.writeString(dir.resolve("b.tfvars"), TestConfigs.tfvars(TestConfigs.V0, "region2 = \"x\""));

        int status = Main.run(project, Map.of("KARPENTER_TFVARS", "clusters", "CDKTF_OUTDIR", "out"), new PrintStream(err));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("b.tfvars: unknown setting region2");
        assertThat(project.resolve("out")).doesNotExist();
    }

    @Test
    void synthesizesIntoCdktfOutdirAndKeepsTerraformWorkingFiles() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        Path out = project.resolve("out");
        Path terraformDir = Files.createDirectories(out.resolve("stacks/demo-iam/.terraform"));
        Path stale = Files.createDirectories(out.resolve("stacks/old-iam")).resolve("cdk.tf.json");
        Files.writeString(stale, "{}");

        int status = Main.run(project, Map.of("CDKTF_OUTDIR", "out"), new PrintStream(err));

        assertThat(status).as(err.toString()).isZero();
        assertThat(out.resolve("manifest.json")).isRegularFile();
        assertThat(out.resolve("stacks/demo-nodepools/cdk.tf.json")).isRegularFile();
        assertThat(terraformDir).isDirectory();
        assertThat(stale).doesNotExist();
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no staging directory left behind")
                    .containsExactlyInAnyOrder("terraform.tfvars", "out");
        }
    }
}
