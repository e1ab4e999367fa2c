package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/plan-stacks, run against a stand-in cdktf that records its calls and answers like Terraform would. */
class PlanStacksScriptTest {
    private static final String MANIFEST = """
            {"version": "0.19.2", "stacks": {
              "demo-nodepools": {"dependencies": ["demo-karpenter"]},
              "demo-karpenter": {"dependencies": ["demo-iam", "demo-interruption"]},
              "demo-interruption": {"dependencies": []},
              "demo-iam": {"dependencies": []},
              "other-iam": {"dependencies": []}}}
            """;

    @TempDir
    Path temp;

    @Test
    void plansInDependencyOrderAndReportsStacksWaitingForAFirstDeploy() throws Exception {
        int status = runWith("""
                echo "$2 $TF_CLI_ARGS_plan" >> "$CALLS"
                if [ "$2" = demo-karpenter ]; then echo 'Error: Unable to find remote state' >&2; exit 1; fi
                echo "Plan: 1 to add, 0 to change, 0 to destroy."
                """);

        assertThat(Files.readAllLines(temp.resolve("calls")))
                .as("in dependency order, never taking the state lock")
                .containsExactly(
                        "demo-iam -lock=false",
                        "demo-interruption -lock=false",
                        "demo-karpenter -lock=false",
                        "other-iam -lock=false");
        assertThat(status).as("a producer never applied is not a failure").isZero();
        assertThat(temp.resolve("plans"))
                .as("one report per cluster")
                .isDirectoryContaining("glob:**/demo.md")
                .isDirectoryContaining("glob:**/other.md");
        assertThat(Files.readString(temp.resolve("plans/other.md")))
                .contains("| `other-iam` | ✅ planned |")
                .doesNotContain("demo-iam");
        String report = Files.readString(temp.resolve("plans/demo.md"));
        assertThat(report)
                .contains("| `demo-iam` | ✅ planned |")
                .contains("| `demo-karpenter` | ⏳ waiting: a stack it reads was never applied (first deploy) |")
                .contains("| `demo-nodepools` | ⏳ waiting: waits for demo-karpenter |")
                .contains("Plan: 1 to add, 0 to change, 0 to destroy.");
    }

    @Test
    void anyOtherPlanErrorFailsTheRun() throws Exception {
        int status = runWith("""
                echo "$2" >> "$CALLS"
                if [ "$2" = demo-interruption ]; then echo 'Error: AccessDenied' >&2; exit 1; fi
                """);

        assertThat(status).isEqualTo(1);
        assertThat(Files.readString(temp.resolve("plans/demo.md")))
                .contains("| `demo-interruption` | ❌ failed: Error: AccessDenied |");
    }

    @Test
    void aHugePlanIsShortenedToFitOneComment() throws Exception {
        int status = runWith("""
                echo "$2" >> "$CALLS"
                for i in $(seq 1 4000); do echo "  + resource line $i of a very large plan ......................"; done
                """);

        assertThat(status).isZero();
        String report = Files.readString(temp.resolve("plans/demo.md"));
        assertThat(report.length()).isLessThan(65_536 - 100);
        assertThat(report)
                .contains("| `demo-nodepools` | ✅ planned |")
                .contains("… (shortened; the job log has the whole plan)")
                .contains("<summary>demo-nodepools</summary>");
    }

    private int runWith(String fakeCdktfBody) throws IOException, InterruptedException {
        Path outdir = Files.createDirectories(temp.resolve("out"));
        Files.writeString(outdir.resolve("manifest.json"), MANIFEST);
        Path fake = temp.resolve("cdktf");
        Files.writeString(fake, "#!/usr/bin/env bash\n" + fakeCdktfBody);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of("bin/plan-stacks").toAbsolutePath().toString(),
                        temp.resolve("plans").toString())
                .redirectErrorStream(true);
        builder.environment().put("CDKTF_OUTDIR", outdir.toString());
        builder.environment().put("CDKTF_CLI", fake.toString());
        builder.environment().put("CALLS", temp.resolve("calls").toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        return process.exitValue();
    }
}
