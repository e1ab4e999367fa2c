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
        Files.writeString(broken, Files.readString(WORKFLOWS.resolve("pull-request.yml"))
                .replace("runs-on: ubuntu-24.04", "runs_on: ubuntu-24.04"));

        assertThat(validate(broken)).isNotZero();
    }

    @Test
    void pullRequestsTestSynthAndPlanEveryStackWithOidcCredentials() throws IOException {
        JsonNode workflow = read("pull-request.yml");

        assertThat(workflow.path("on").has("pull_request")).isTrue();
        assertThat(workflow.path("permissions").path("id-token").asText()).isEqualTo("write");
        assertThat(workflow.path("permissions").path("pull-requests").asText()).isEqualTo("write");
        assertThat(runs(workflow.path("jobs").path("test"))).contains("mvn -B verify");

        JsonNode plan = workflow.path("jobs").path("plan");
        assertThat(plan.path("needs").asText()).isEqualTo("test");
        List<String> runs = runs(plan);
        int synth = indexOf(runs, "cdktf synth");
        int planStacks = indexOf(runs, "bin/plan-stacks");
        assertThat(synth).isNotNegative().isLessThan(planStacks);
        JsonNode credentials = step(plan, "aws-actions/configure-aws-credentials");
        assertThat(credentials.path("with").path("role-to-assume").asText()).isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertThat(step(plan, "actions/github-script").path("with").path("script").asText()).contains("createComment");
        assertThat(stepNamed(plan, "Synthesize").path("env").path("KARPENTER_STATE_BUCKET").asText())
                .isEqualTo("${{ vars.TF_STATE_BUCKET }}");
        assertCommonSetup(workflow);
    }

    @Test
    void mainDeploysEveryStackBehindAnEnvironment() throws IOException {
        JsonNode workflow = read("deploy.yml");
        JsonNode deploy = workflow.path("jobs").path("deploy");

        assertThat(workflow.path("on").path("push").path("branches").get(0).asText()).isEqualTo("main");
        assertThat(workflow.path("concurrency").path("cancel-in-progress").asBoolean(true)).isFalse();
        assertThat(deploy.path("environment").asText()).isEqualTo("production");
        assertThat(runs(deploy)).anyMatch(r -> r.contains("cdktf deploy '*' --auto-approve"));
        assertThat(step(deploy, "aws-actions/configure-aws-credentials").path("with").path("role-to-assume").asText())
                .isEqualTo("${{ vars.AWS_DEPLOY_ROLE_ARN }}");
        assertCommonSetup(workflow);
    }

    /** Pinned actions and tools, caches, and no terraform wrapper (it garbles the output cdktf parses). */
    private static void assertCommonSetup(JsonNode workflow) {
        assertThat(workflow.path("env").path("TERRAFORM_VERSION").asText()).matches("\\d+\\.\\d+\\.\\d+");
        workflow.path("jobs").forEach(job -> {
            for (JsonNode step : job.path("steps")) {
                if (step.has("uses")) {
                    assertThat(step.path("uses").asText()).as("actions are pinned to exact releases").matches("[\\w./-]+@v\\d+\\.\\d+\\.\\d+");
                }
            }
            assertThat(step(job, "hashicorp/setup-terraform").path("with").path("terraform_wrapper").asBoolean(true)).isFalse();
            assertThat(step(job, "actions/setup-java").path("with").path("cache").asText()).isEqualTo("maven");
            assertThat(step(job, "actions/setup-node").path("with").path("cache").asText()).isEqualTo("npm");
        });
    }

    private static int validate(Path file) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(VALIDATOR.toAbsolutePath().toString(), file.toAbsolutePath().toString())
                .redirectErrorStream(true).start();
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

    private static JsonNode stepNamed(JsonNode job, String name) {
        for (JsonNode step : job.path("steps")) {
            if (step.path("name").asText().equals(name)) {
                return step;
            }
        }
        throw new AssertionError("no step named " + name);
    }
}
