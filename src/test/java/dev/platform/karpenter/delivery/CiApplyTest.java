package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libexec/ci-apply in a bundle whose bin/stacks stands in for the real one: what it runs, what the job's summary
 * says, and that a stopped apply (exit 3) fails the job telling to run the deploy again. CiBundleIT runs it on moto.
 */
@KernelOnlyThroughSynthesized
class CiApplyTest {
    @TempDir
    Path bundle;

    @Test
    void aStoppedApplyFailsTheJobAndSaysToRunTheDeployAgain() throws Exception {
        Path summary = bundle.resolve("summary.md");
        Ran ran = apply("""
                echo "$*" > "$0.args"
                echo "=== east-iam: terraform apply (exit 1)"
                echo "Error: Saved plan is stale"
                echo
                echo "=== Summary: apply, 1 cluster in 3.0 s"
                echo "  east  STOPPED  stale plan 1: east-iam"
                exit 3
                """, summary);

        assertThat(ran.exit()).isEqualTo(3);
        assertThat(Files.readString(bundle.resolve("bin/stacks.args")).strip())
                .isEqualTo("apply --plans " + bundle.resolve("plans") + " --cluster east --lock-timeout 10m");
        assertThat(ran.output())
                .contains("Error: Saved plan is stale")
                .contains("::error title=Plan again::A saved plan of east is stale, changed or missing");
        assertThat(Files.readString(summary))
                .startsWith("## Apply: cluster `east`")
                .contains("0123abcd  east-iam.tfplan")
                .contains("=== Summary: apply, 1 cluster in 3.0 s\n  east  STOPPED  stale plan 1: east-iam\n```")
                .doesNotContain("terraform apply (exit 1)")
                .endsWith("Re-run the deploy workflow: it plans again and asks for a new approval.\n");

        Files.delete(summary);
        Ran done = apply(
                "echo '=== Summary: apply, 1 cluster in 9.0 s'; echo '  east  ok      applied 1: east-iam'", summary);
        assertThat(done.exit()).isZero();
        assertThat(done.output()).doesNotContain("::error");
        assertThat(Files.readString(summary))
                .contains("  east  ok      applied 1: east-iam")
                .doesNotContain("Re-run");
    }

    private record Ran(int exit, String output) {}

    private Ran apply(String stacks, Path summary) throws Exception {
        Path bin = Files.createDirectories(bundle.resolve("bin"));
        Path libexec = Files.createDirectories(bundle.resolve("libexec"));
        Files.writeString(bin.resolve("stacks"), "#!/usr/bin/env bash\n" + stacks);
        Files.setPosixFilePermissions(bin.resolve("stacks"), PosixFilePermissions.fromString("rwx------"));
        Files.copy(
                Path.of("libexec/ci-apply"),
                libexec.resolve("ci-apply"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path plans = Files.createDirectories(bundle.resolve("plans/east"));
        Files.writeString(plans.resolve("SHA256SUMS"), "0123abcd  east-iam.tfplan\n");
        ProcessBuilder builder = new ProcessBuilder(
                        libexec.resolve("ci-apply").toString(),
                        "east",
                        bundle.resolve("plans").toString())
                .redirectErrorStream(true);
        builder.environment().put("GITHUB_STEP_SUMMARY", summary.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Ran(process.exitValue(), output);
    }
}
