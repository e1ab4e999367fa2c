package dev.platform.karpenter.synth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    @TempDir
    Path project;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void badInputExitsNonZeroWithOneLineAndWritesNothing() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars("v0.38.0"));

        int status = run(Map.of("KARPENTER_OUTDIR", "out"));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString().lines())
                .singleElement()
                .asString()
                .startsWith("error: ")
                .contains("karpenter_chart_version \"v0.38.0\"");
        assertThat(entries(project)).containsExactly("terraform.tfvars");
    }

    @Test
    void aBadClusterInADirectoryStopsEveryCluster() throws IOException {
        Path dir = Files.createDirectory(project.resolve("clusters"));
        Files.writeString(dir.resolve("a.tfvars"), TestConfigs.tfvarsFor("a", "us-west-2", TestConfigs.V0));
        Files.writeString(dir.resolve("b.tfvars"), TestConfigs.tfvars(TestConfigs.V0, "region2 = \"x\""));

        int status = run(Map.of("KARPENTER_TFVARS", "clusters", "KARPENTER_OUTDIR", "out"));

        assertThat(status).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("b.tfvars: unknown setting region2");
        assertThat(entries(project)).containsExactly("clusters");
    }

    @Test
    void publishesAsALinkToAGenerationKeepingTerraformWorkingFilesAndDroppingRemovedStacks() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        // An output written before generations existed: a plain directory, with a stack that is no longer configured.
        Path out = project.resolve("out");
        Path provider = Files.createDirectories(out.resolve("stacks/demo-iam/.terraform/providers"))
                .resolve("aws");
        Files.writeString(provider, "provider binary");
        Files.writeString(out.resolve("stacks/demo-iam/.terraform.lock.hcl"), "# lock");
        Files.writeString(Files.createDirectories(out.resolve("stacks/old-iam")).resolve("cdk.tf.json"), "{}");
        Files.writeString(out.resolve("manifest.json"), "{}");

        assertThat(run(Map.of("KARPENTER_OUTDIR", "out"))).as(err.toString()).isZero();
        assertThat(run(Map.of("KARPENTER_OUTDIR", "out")))
                .as("again, from a link")
                .isZero();

        assertThat(out).isSymbolicLink();
        assertThat(Files.readSymbolicLink(out).toString()).startsWith(".out.gen-");
        assertThat(out.resolve("manifest.json")).content().contains("\"demo-nodepools\"");
        assertThat(out.resolve("stacks/demo-nodepools/cdk.tf.json")).isRegularFile();
        assertThat(out.resolve("stacks/demo-iam/.terraform/providers/aws")).hasContent("provider binary");
        assertThat(out.resolve("stacks/demo-iam/.terraform.lock.hcl")).hasContent("# lock");
        assertThat(out.resolve("stacks/old-iam"))
                .as("the stack of a removed cluster")
                .doesNotExist();
        assertThat(entries(project))
                .as("one generation, the lock; no staging directory")
                .hasSize(4)
                .contains("terraform.tfvars", "out", ".out.lock")
                .anyMatch(name -> name.startsWith(".out.gen-"));
        assertThat(out.toFile().getCanonicalFile().getParentFile())
                .as("generations at the link's depth")
                .isEqualTo(project.toFile().getCanonicalFile());
        assertThat(out.resolve("stacks/demo-iam/cdk.tf.json"))
                .content()
                .contains("\"path\": \"../../../terraform.demo-iam.tfstate\"");
    }

    @Test
    void underTheCdktfCliRemovedStacksStayAsEmptyDirectoriesForTheCliToRemove() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        Files.writeString(
                Files.createDirectories(project.resolve("out/stacks/old-iam/.terraform"))
                        .resolve("x"),
                "x");

        assertThat(run(Map.of("KARPENTER_OUTDIR", "out", RunSettings.CDKTF_CLI_MARKER, "true")))
                .as(err.toString())
                .isZero();

        assertThat(project.resolve("out/stacks/old-iam")).isEmptyDirectory();
    }

    @Test
    void informationGoesToStdoutSoTheCdktfCliDoesNotShowItAsAnError() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));

        assertThat(run(Map.of("KARPENTER_OUTDIR", "out"))).isZero();

        // Only the pools' warnings (the defaults follow new AMIs: PoolChecksTest) go to stderr.
        assertThat(err.toString().lines()).allMatch(line -> line.startsWith("warning: "));
        assertThat(out.toString()).startsWith("karpenter-cdktf: reading ");
    }

    /** Every bad environment gives one short line, exit 2, no Java names, and writes nothing. */
    @Test
    void badEnvironmentsGiveOneLine() throws IOException {
        Files.writeString(project.resolve("terraform.tfvars"), TestConfigs.tfvars(TestConfigs.V0));
        Files.writeString(project.resolve("a-file"), "x");
        Files.writeString(Files.createDirectories(project.resolve("src")).resolve("Code.java"), "x");
        Map<Map<String, String>, String> cases = Map.of(
                Map.of("KARPENTER_OUTDIR", "/"), "cannot write the output to \"/\"",
                Map.of("KARPENTER_OUTDIR", "a-file"), "a-file\" is a file",
                Map.of("KARPENTER_OUTDIR", "src"), "holds \"Code.java\", which no synthesis wrote",
                Map.of("KARPENTER_OUTDIR", "/proc/karpenter-out"), "cannot write next to the output directory",
                Map.of("CDKTF_OUTDIR", "out"), "environment variable CDKTF_OUTDIR is set",
                Map.of("KARPENTER_SYNTH_WORKERS", "2"), "KARPENTER_SYNTH_WORKERS was renamed KARPENTER_SYNTH_PROCESSES",
                Map.of("KARPENTER_SYNTH_PROCESSES", "two"), "KARPENTER_SYNTH_PROCESSES must be a whole number",
                Map.of("PATH", "/nonexistent"), "Node.js not found: no node on PATH",
                Map.of("KARPENTER_TFVARS", "missing.tfvars"), "KARPENTER_TFVARS names");
        for (Map.Entry<Map<String, String>, String> bad : cases.entrySet()) {
            err.reset();
            int status = run(bad.getKey());
            assertThat(status).as(bad.getKey().toString()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(err.toString().lines())
                    .as(bad.getKey().toString())
                    .singleElement()
                    .asString()
                    .startsWith("error: ")
                    .contains(bad.getValue())
                    .hasSizeLessThanOrEqualTo(ConfigException.MAX_LENGTH)
                    .doesNotContain("Exception", "java.", "dev.platform", "\tat ");
        }
        assertThat(entries(project)).containsExactlyInAnyOrder("terraform.tfvars", "a-file", "src");
    }

    @Test
    void longMessagesAreShortenedToOneLine() {
        Main.report(new PrintStream(err), "first\nsecond " + "x".repeat(1000));

        assertThat(err.toString().lines())
                .singleElement()
                .asString()
                .startsWith("error: first second x")
                .hasSize(ConfigException.MAX_LENGTH)
                .endsWith("…");
    }

    private int run(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("PATH", System.getenv("PATH"));
        return Main.run(project, all, new PrintStream(out), new PrintStream(err));
    }

    private static List<String> entries(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
