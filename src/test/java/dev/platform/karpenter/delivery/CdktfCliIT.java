package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.IntegrationEnvironment;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.TerraformRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the pinned cdktf CLI, as a user runs it: deploy the IAM and interruption stacks of a cluster
 * that moto holds, read their outputs with `cdktf output`, destroy them, and find nothing left behind.
 *
 * <p>On a stack's first init, cdktf also runs `terraform providers lock`, which asks the public registry for
 * checksums whatever the CLI configuration says; this machine has only a provider mirror. So, as an air-gapped
 * user would, the test synthesizes and runs `terraform init` once per stack (which writes the lock file from the
 * mirror), and cdktf, finding a matching lock file, skips that step.
 */
@IntegrationTest
class CdktfCliIT {
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path CDKTF = PROJECT.resolve("bin/cdktf");
    private static final Duration TIMEOUT = Duration.ofMinutes(15);
    private static final List<String> STACKS = List.of("e2e-iam", "e2e-interruption");

    @TempDir
    Path workspace;

    @Test
    void deployOutputAndDestroyThroughTheCli() throws Exception {
        IntegrationEnvironment.requireTools();
        assertThat(CDKTF).as("the pinned cdktf CLI").isExecutable();
        try (MotoServer moto = MotoServer.start()) {
            moto.createEksCluster("e2e", "1.27");
            List<String> rolesBefore = moto.listRoleNames();
            writeProject();
            cdktf(moto, "synth");
            for (String stack : STACKS) {
                new TerraformRunner(workspace.resolve("cdktf.out/stacks").resolve(stack), moto).init();
            }

            // Deploy, output and destroy read what synth wrote (the app is unchanged since), as --skip-synth lets a
            // user; the air-gapped init above needs that synthesized output first anyway.
            cdktf(moto, "deploy", STACKS.get(0), STACKS.get(1), "--auto-approve", "--skip-synth");
            assertThat(moto.listRoleNames()).contains("KarpenterIRSA-e2e");
            assertThat(moto.listQueueUrls()).anyMatch(url -> url.endsWith("/e2e"));

            cdktf(moto, "output", STACKS.get(0), STACKS.get(1), "--skip-synth", "--outputs-file", "outputs.json");
            JsonNode outputs =
                    Json.mapper().readTree(workspace.resolve("outputs.json").toFile());
            assertThat(outputs.path("e2e-iam").path("karpenter_irsa_arn").asText())
                    .isEqualTo("arn:aws:iam::123456789012:role/KarpenterIRSA-e2e");
            assertThat(outputs.path("e2e-interruption")
                            .path("karpenter_sqs_queue_name")
                            .asText())
                    .isEqualTo("e2e");

            // The controller stack depends on both and was never deployed (no helm provider here); cdktf guards
            // against destroying producers under a live consumer unless told that it is absent. cdktf 0.19.2 destroying
            // two independent stacks at once respawns `terraform destroy` without end: one stack at a time.
            cdktf(
                    moto,
                    "destroy",
                    STACKS.get(0),
                    STACKS.get(1),
                    "--auto-approve",
                    "--skip-synth",
                    "--ignore-missing-stack-dependencies",
                    "--parallelism",
                    "1");
            // The EC2 Spot service-linked role is made once per account and deliberately outlives destroy.
            assertThat(moto.listRoleNames())
                    .filteredOn(name -> !name.startsWith("AWSServiceRoleFor"))
                    .containsExactlyInAnyOrderElementsOf(rolesBefore);
            assertThat(moto.listPolicyNames()).noneMatch(name -> name.contains("e2e"));
            assertThat(moto.listInstanceProfileNames()).isEmpty();
            assertThat(moto.listQueueUrls()).isEmpty();
            assertThat(moto.listRuleNames()).isEmpty();
        }
    }

    /** A user's project directory: cdktf.json pointing at this project's app, and the cluster's tfvars. */
    private void writeProject() throws IOException {
        Files.writeString(workspace.resolve("cdktf.json"), """
                {"language": "java", "app": %s, "sendCrashReports": "false"}
                """.formatted(Json.mapper()
                .writeValueAsString(PROJECT.resolve("libexec/app").toString())));
        Files.writeString(workspace.resolve("terraform.tfvars"), """
                cluster_name            = "e2e"
                region                  = "%s"
                karpenter_chart_version = "v0.30.0"
                """.formatted(MotoServer.REGION));
    }

    private void cdktf(MotoServer moto, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(CDKTF.toString());
        builder.command().addAll(List.of(args));
        builder.directory(workspace.toFile()).redirectErrorStream(true);
        Path log = Files.createDirectories(IntegrationEnvironment.buildDir().resolve("cdktf-logs"))
                .resolve("e2e-" + args[0] + ".log");
        builder.redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        TerraformRunner.pointAtMoto(env, moto);
        env.remove("KARPENTER_TFVARS");
        // As a user runs it: libexec/app chooses the kernel (the test JVM's JSII_RUNTIME is relative to the project).
        env.remove("JSII_RUNTIME");
        env.putAll(Map.of("CI", "true", "NO_COLOR", "1"));
        Process process = builder.start();
        if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("cdktf " + String.join(" ", args) + " timed out; see " + log);
        }
        assertThat(process.exitValue())
                .as("cdktf %s (log %s):%n%s", String.join(" ", args), log, Files.readString(log))
                .isZero();
    }
}
