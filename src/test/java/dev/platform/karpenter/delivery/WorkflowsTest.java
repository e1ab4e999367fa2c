package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GitHub Actions workflows: valid against the workflow schema (action-validator, pinned in bindings/), and
 * doing what CI promises: test, synth, per-stack plans with OIDC credentials on pull requests; a gated deploy on main.
 */
class WorkflowsTest {
    private static final Path WORKFLOWS = Path.of(".github/workflows");
    private static final Path VALIDATOR = Path.of("bindings/node_modules/.bin/action-validator");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path temp;

    @Test
    void everyWorkflowPassesTheSchemaValidator() throws Exception {
        List<Path> files;
        try (var paths = Files.list(WORKFLOWS)) {
            files = paths.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("deploy.yml", "pull-request.yml");
        for (Path file : files) {
            assertThat(validate(file)).as(file + " is a valid workflow").isZero();
        }
    }

    @Test
    void theValidatorRejectsABrokenWorkflow() throws Exception {
        Path broken = temp.resolve("broken.yml");
        Files.writeString(
                broken,
                Files.readString(WORKFLOWS.resolve("pull-request.yml"))
                        .replace("runs-on: ubuntu-24.04", "runs_on: ubuntu-24.04"));

        assertThat(validate(broken)).isNotZero();
    }

    @Test
    void pullRequestsTestSynthAndPlanEveryStackWithOidcCredentials() throws IOException {
        JsonNode workflow = read("pull-request.yml");

        assertThat(workflow.path("on").has("pull_request")).isTrue();
        assertThat(workflow.path("permissions"))
                .as("nothing granted by default")
                .isEmpty();
        JsonNode test = workflow.path("jobs").path("test");
        assertThat(test.path("permissions"))
                .as("the job running the pull request's build reads, nothing more")
                .isEqualTo(YAML.readTree("contents: read"));
        assertThat(runs(test)).contains("mvn -B verify");
        assertThat(test.toString()).doesNotContain("configure-aws-credentials", "id-token");

        JsonNode plan = workflow.path("jobs").path("plan");
        assertThat(plan.path("needs").asText()).isEqualTo("test");
        assertThat(plan.path("permissions"))
                .isEqualTo(YAML.readTree("{contents: read, id-token: write, pull-requests: write}"));
        assertThat(plan.path("if").asText())
                .as("no plan of the example or without state")
                .contains("vars.TF_STATE_BUCKET != ''")
                .contains("vars.KARPENTER_TFVARS != ''");
        List<String> runs = runs(plan);
        int synth = indexOf(runs, "bin/cdktf synth");
        int planStacks = indexOf(runs, "bin/plan-stacks");
        assertThat(synth).isNotNegative().isLessThan(planStacks);
        JsonNode credentials = step(plan, "aws-actions/configure-aws-credentials");
        assertThat(credentials.path("with").path("role-to-assume").asText()).isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertCredentialsAfterEveryBuildStep(plan, "bin/plan-stacks");
        String comment =
                step(plan, "actions/github-script").path("with").path("script").asText();
        assertThat(comment)
                .contains("createComment")
                .contains("readdirSync(dir)")
                .as("one comment per cluster report");
        assertThat(plan.path("env").path("KARPENTER_STATE_BUCKET").asText()).isEqualTo("${{ vars.TF_STATE_BUCKET }}");
        assertCommonSetup(workflow, "pull-request.yml");
    }

    @Test
    void mainDeploysEveryStackBehindAnEnvironment() throws IOException {
        JsonNode workflow = read("deploy.yml");
        JsonNode deploy = workflow.path("jobs").path("deploy");

        assertThat(workflow.path("on").path("push").path("branches").get(0).asText())
                .isEqualTo("main");
        assertThat(workflow.path("concurrency").path("cancel-in-progress").asBoolean(true))
                .isFalse();
        assertThat(deploy.path("environment").asText()).isEqualTo("production");
        assertThat(workflow.path("permissions")).isEmpty();
        assertThat(deploy.path("permissions")).isEqualTo(YAML.readTree("{contents: read, id-token: write}"));
        assertThat(runs(deploy)).anyMatch(r -> r.contains("bin/cdktf deploy '*' --auto-approve"));
        assertThat(step(deploy, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .isEqualTo("${{ vars.AWS_DEPLOY_ROLE_ARN }}");
        assertCredentialsAfterEveryBuildStep(deploy, "bin/cdktf deploy");
        assertThat(deploy.path("env").path("TF_CLI_ARGS_apply").asText()).contains("-lock-timeout=");
        String guard = runs(deploy).get(0);
        assertThat(guard)
                .as("the first step refuses the example configuration and local state")
                .contains("terraform.tfvars.example")
                .contains("$KARPENTER_STATE_BUCKET")
                .contains("exit 1");
        assertCommonSetup(workflow, "deploy.yml");
    }

    /** The deploy guard, run as the workflow runs it: it refuses the example, a missing variable, no bucket. */
    @Test
    void theDeployGuardRefusesTheExampleAndLocalState() throws Exception {
        String guard = runs(read("deploy.yml").path("jobs").path("deploy")).get(0);
        assertThat(runGuard(guard, "", "bucket")).isEqualTo(1);
        assertThat(runGuard(guard, "terraform.tfvars.example", "bucket")).isEqualTo(1);
        assertThat(runGuard(guard, "clusters/", "")).isEqualTo(1);
        assertThat(runGuard(guard, "clusters/", "bucket")).isZero();
    }

    private static int runGuard(String script, String tfvars, String bucket) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-c", script).redirectErrorStream(true);
        builder.environment().put("KARPENTER_TFVARS", tfvars);
        builder.environment().put("KARPENTER_STATE_BUCKET", bucket);
        Process process = builder.start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return process.exitValue();
    }

    /** Every step before the credentials builds or installs; the credentials come right before {@code user}. */
    private static void assertCredentialsAfterEveryBuildStep(JsonNode job, String user) {
        List<JsonNode> steps = new ArrayList<>();
        job.path("steps").forEach(steps::add);
        int credentials = -1;
        int lastBuild = -1;
        int firstUse = -1;
        for (int i = 0; i < steps.size(); i++) {
            String text = steps.get(i).toString();
            if (text.contains("configure-aws-credentials")) {
                credentials = i;
            }
            if (text.contains("mvn ")
                    || text.contains("setup-")
                    || text.contains("npm ")
                    || text.contains("cdktf synth")) {
                lastBuild = i;
            }
            if (firstUse < 0 && text.contains(user)) {
                firstUse = i;
            }
        }
        assertThat(credentials).isGreaterThan(lastBuild).isLessThan(firstUse);
    }

    /** Actions pinned to commit SHAs (release in a comment), tools pinned, caches, no terraform wrapper. */
    private static void assertCommonSetup(JsonNode workflow, String file) throws IOException {
        assertThat(workflow.path("env").path("TERRAFORM_VERSION").asText()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(workflow.path("env").path("npm_config_ignore_scripts").asText())
                .as("npm runs no lifecycle scripts")
                .isEqualTo("true");
        List<String> usesLines = Files.readAllLines(WORKFLOWS.resolve(file)).stream()
                .filter(line -> line.strip().matches("(- )?uses: .*"))
                .toList();
        assertThat(usesLines)
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line)
                        .as("pinned to a full commit SHA, the release in a comment")
                        .matches("\\s*(- )?uses: [\\w./-]+@[0-9a-f]{40} # v\\d+\\.\\d+\\.\\d+"));
        workflow.path("jobs").forEach(job -> {
            for (JsonNode step : job.path("steps")) {
                if (step.path("uses").asText().startsWith("actions/checkout@")) {
                    assertThat(step.path("with").path("persist-credentials").asBoolean(true))
                            .isFalse();
                }
            }
            assertThat(step(job, "hashicorp/setup-terraform")
                            .path("with")
                            .path("terraform_wrapper")
                            .asBoolean(true))
                    .isFalse();
            assertThat(step(job, "actions/setup-java")
                            .path("with")
                            .path("cache")
                            .asText())
                    .isEqualTo("maven");
            assertThat(step(job, "actions/setup-node")
                            .path("with")
                            .path("cache")
                            .asText())
                    .isEqualTo("npm");
        });
    }

    private static int validate(Path file) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        VALIDATOR.toAbsolutePath().toString(),
                        file.toAbsolutePath().toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        if (process.exitValue() != 0) {
            System.err.println(output);
        }
        return process.exitValue();
    }

    private static JsonNode read(String name) throws IOException {
        return YAML.readTree(WORKFLOWS.resolve(name).toFile());
    }

    private static List<String> runs(JsonNode job) {
        List<String> runs = new ArrayList<>();
        job.path("steps").forEach(step -> {
            if (step.has("run")) {
                runs.add(step.path("run").asText());
            }
        });
        return runs;
    }

    private static int indexOf(List<String> runs, String fragment) {
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).contains(fragment)) {
                return i;
            }
        }
        return -1;
    }

    private static JsonNode step(JsonNode job, String action) {
        for (JsonNode step : job.path("steps")) {
            if (step.path("uses").asText().startsWith(action + "@")) {
                return step;
            }
        }
        throw new AssertionError("no step uses " + action);
    }
}
