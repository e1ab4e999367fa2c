package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.IntegrationEnvironment;
import dev.platform.karpenter.testing.IntegrationTest;
import dev.platform.karpenter.testing.MotoServer;
import dev.platform.karpenter.testing.SharedMoto;
import dev.platform.karpenter.testing.Synthesized;
import dev.platform.karpenter.testing.TerraformRunner;
import dev.platform.karpenter.testing.TestConfigs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workflows' jobs, run here from their scripts on moto: the build job's bundle step (the one synthesized output,
 * bin/stacks' classes and the pools' previews, the base branch previewed once), then, each from a fresh unpack of
 * the bundle as on a runner of its own and with mvn, node and npm standing in as failures on the PATH, a plan job
 * that saves its plans (deploy), an apply job that applies them (after the approval), and a nightly drift job and the
 * fleet's table. The cluster's IAM stack only: its controller and node pools need a Kubernetes API moto has not.
 */
@IntegrationTest
class CiBundleIT {
    private static final String CLUSTER_TFVARS = TestConfigs.tfvarsFor("ci", MotoServer.REGION, TestConfigs.V1);

    @RegisterExtension
    static final SharedMoto MOTO = SharedMoto.perClass();

    @RegisterExtension
    static final Synthesized APP = Synthesized.of(TestConfigs.parse(CLUSTER_TFVARS));

    @TempDir
    Path temp;

    @Test
    void eachJobRunsItsScriptFromTheBundleWithoutMavenOrASynth() throws Exception {
        MotoServer moto = MOTO.server();
        moto.createEksCluster("ci", "1.32");
        Path tfvars = Files.createDirectories(temp.resolve("clusters"));
        Files.writeString(tfvars.resolve("ci.tfvars"), CLUSTER_TFVARS);
        Path base = Files.createDirectories(temp.resolve("base"));
        Files.writeString(base.resolve("ci.tfvars"), CLUSTER_TFVARS);
        Files.writeString(base.resolve("old.tfvars"), TestConfigs.tfvarsFor("old", MotoServer.REGION, TestConfigs.V1));
        Path runnerTemp = Files.createDirectories(temp.resolve("runner-temp"));
        Path githubOutput = temp.resolve("github-output");

        // build job: its bundle step, as pull-request.yml runs it, in the checkout (this project)
        JsonNode bundleStep = WorkflowsTest.stepWithId(
                WorkflowsTest.read("pull-request.yml").path("jobs").path("test"), "bundle");
        Ran bundled = bash(
                bundleStep.path("run").asText(),
                Path.of("").toAbsolutePath(),
                Map.of(
                        "RUNNER_TEMP", runnerTemp.toString(),
                        "GITHUB_OUTPUT", githubOutput.toString(),
                        "KARPENTER_OUTDIR", APP.dir().toString(),
                        "KARPENTER_TFVARS", tfvars.toString(),
                        "KARPENTER_PREVIEW_BASE", base.toString()));
        assertThat(bundled.exit()).as(bundled.output()).isZero();
        assertThat(Files.readAllLines(githubOutput)).containsExactly("clusters=[\"ci\"]");
        assertThat(bundled.output())
                .as("the base branch's configuration, previewed once, names the cluster this branch removes")
                .contains("::warning title=Cluster removed::old is in the base branch's configuration but not in"
                        + " this one.");
        Path tar = runnerTemp.resolve("bundle.tar");

        // plan job (deploy): a runner of its own, the bundle unpacked, nothing built
        Path planJob = unpack(tar, "plan-runner");
        try (Stream<Path> lib = Files.list(planJob.resolve("lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString()))
                    .as("the app's jar and Jackson: all bin/stacks runs")
                    .hasSize(4)
                    .anyMatch(name -> name.equals("karpenter-cdktf.jar"))
                    .anyMatch(name -> name.startsWith("jackson-databind-"));
        }
        assertThat(planJob.resolve("cdktf.out/manifest.json")).isRegularFile();
        assertThat(Files.readString(planJob.resolve("previews/ci.md"))).contains("### Node pools of ");
        Path planSummary = temp.resolve("plan-summary.md");
        Path plans = temp.resolve("plan-runner-temp/plans");
        Ran plan = job(
                planJob,
                planSummary,
                "libexec/ci-plan",
                "ci",
                temp.resolve("plan-runner-temp/reports").toString(),
                "--out",
                plans.toString(),
                "--concern",
                "iam");
        assertThat(plan.exit()).as(plan.output()).isZero();
        String sha = Files.readAllLines(plans.resolve("ci/SHA256SUMS")).get(0).split(" ")[0];
        assertThat(Files.readString(planSummary))
                .startsWith("## Terraform plans: cluster `ci`")
                .contains("| `ci-iam` | ✏️ changes: Plan: ")
                .contains("`" + sha + "` |")
                .as("the pools' preview from the bundle")
                .contains("### Node pools of ");

        // apply job: another runner, the bundle and the plan job's artifact (its cluster's plans) unpacked
        Path applyJob = unpack(tar, "apply-runner");
        Path artifact = Files.createDirectories(temp.resolve("apply-runner-temp/plans/ci"));
        try (Stream<Path> files = Files.list(plans.resolve("ci"))) {
            for (Path file : files.toList()) {
                Files.copy(file, artifact.resolve(file.getFileName()));
            }
        }
        Path applySummary = temp.resolve("apply-summary.md");
        Ran apply = job(
                applyJob,
                applySummary,
                "libexec/ci-apply",
                "ci",
                artifact.getParent().toString());
        assertThat(apply.exit()).as(apply.output()).isZero();
        assertThat(apply.output()).contains("=== ci-iam: terraform apply (exit 0)");
        assertThat(Files.readString(applySummary))
                .startsWith("## Apply: cluster `ci`")
                .contains(sha + "  ci-iam.tfplan")
                .contains("  ci  ok      applied 1: ci-iam | skipped 3: ci-interruption, ci-karpenter, ci-nodepools");
        assertThat(moto.listRoleNames()).contains("KarpenterIRSA-ci");

        // drift job and the fleet's table, on the state the apply left
        Path driftSummary = temp.resolve("drift-summary.md");
        Path drift = temp.resolve("drift-runner-temp/drift");
        Ran planned = job(
                applyJob,
                driftSummary,
                "libexec/ci-plan",
                "ci",
                drift.toString(),
                "--detailed-exitcode",
                "--concern",
                "iam");
        assertThat(planned.exit()).as("in sync:\n" + planned.output()).isZero();
        Ran fleet = job(
                applyJob,
                driftSummary,
                "libexec/ci-drift",
                drift.toString(),
                applyJob.resolve("clusters.json").toString());
        assertThat(fleet.exit()).as(fleet.output()).isZero();
        assertThat(Files.readString(driftSummary))
                .contains("## Drift: 1 clusters, 0 drifted, 0 with errors")
                .contains("| cluster | iam |")
                .contains("| `ci` | ✅ in sync |");

        assertThat(temp.resolve("forbidden")).as("no job ran mvn, node or npm").doesNotExist();
    }

    private Path unpack(Path tar, String runner) throws Exception {
        Path bundle = Files.createDirectories(temp.resolve(runner).resolve("bundle"));
        Ran untar = bash(
                "tar -xf \"$TAR\" -C \"$BUNDLE\"", temp, Map.of("TAR", tar.toString(), "BUNDLE", bundle.toString()));
        assertThat(untar.exit()).as(untar.output()).isZero();
        return bundle;
    }

    /**
     * A per-cluster job's script from the unpacked bundle, against moto, with the step summary file a runner gives,
     * and mvn, node, npm and npx on the PATH as stand-ins that fail and leave a mark.
     */
    private Ran job(Path bundle, Path summary, String script, String... args) throws Exception {
        Path stubs = Files.createDirectories(temp.resolve("stubs"));
        for (String tool : List.of("mvn", "node", "npm", "npx")) {
            Path stub = stubs.resolve(tool);
            Files.writeString(
                    stub, "#!/bin/sh\necho \"" + tool + " $*\" >> \"" + temp.resolve("forbidden") + "\"\nexit 97\n");
            Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<String> command = new ArrayList<>(List.of(bundle.resolve(script).toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(bundle.getParent().toFile())
                .redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        TerraformRunner.pointAtMoto(env, MOTO.server());
        env.remove("TF_CLI_CONFIG_FILE");
        env.remove("KARPENTER_OUTDIR");
        env.put("TF_PLUGIN_MIRROR", IntegrationEnvironment.pluginMirror().toString());
        env.put("PATH", stubs + ":" + System.getenv("PATH"));
        env.put("GITHUB_STEP_SUMMARY", summary.toString());
        return run(builder);
    }

    private record Ran(int exit, String output) {}

    private static Ran bash(String script, Path dir, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-c", script)
                .directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(env);
        return run(builder);
    }

    private static Ran run(ProcessBuilder builder) throws IOException, InterruptedException {
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(15, TimeUnit.MINUTES)).as(output).isTrue();
        return new Ran(process.exitValue(), output);
    }
}
