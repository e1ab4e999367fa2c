package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GitHub Actions workflows: valid against the workflow schema (action-validator, pinned in bindings/), and
 * doing what CI promises: test, then one plan job per cluster with OIDC credentials on pull requests; one gated
 * deploy job per cluster on main; a nightly read-only plan per cluster that keeps a drift issue.
 */
@KernelOnlyThroughSynthesized
class WorkflowsTest {
    private static final Path WORKFLOWS = Path.of(".github/workflows");
    /** The library of the action-validator CLI, pinned in bindings/package.json. */
    private static final Path VALIDATOR = Path.of("bindings/node_modules/@action-validator/core");

    static final ObjectMapper YAML = Json.yamlMapper();

    @TempDir
    Path temp;

    @TempDir
    static Path validatedDir;

    private static Path broken;
    /** Each workflow, then a broken copy of pull-request.yml, with the validator's errors. */
    private static Map<Path, JsonNode> validated;

    @BeforeAll
    static void validateTheWorkflowsAndABrokenOne() throws Exception {
        List<Path> files;
        try (var paths = Files.list(WORKFLOWS)) {
            files = new ArrayList<>(
                    paths.filter(p -> p.toString().endsWith(".yml")).sorted().toList());
        }
        broken = validatedDir.resolve("broken.yml");
        Files.writeString(
                broken,
                Files.readString(WORKFLOWS.resolve("pull-request.yml"))
                        .replace("runs-on: ubuntu-24.04", "runs_on: ubuntu-24.04"));
        files.add(broken);
        validated = validate(files);
    }

    @Test
    void everyWorkflowPassesTheSchemaValidator() {
        assertThat(validated.keySet())
                .filteredOn(file -> file.startsWith(WORKFLOWS))
                .extracting(p -> p.getFileName().toString())
                .containsExactly("deploy.yml", "drift.yml", "pull-request.yml");
        validated.forEach((file, errors) -> {
            if (file.startsWith(WORKFLOWS)) {
                assertThat(errors).as(file + " is a valid workflow").isEmpty();
            }
        });
    }

    @Test
    void theValidatorRejectsABrokenWorkflow() {
        assertThat(validated.get(broken).toString())
                .as("runs_on instead of runs-on")
                .contains("Additional property 'runs_on' is not allowed");
    }

    @Test
    void pullRequestsTestThenPlanEachClusterInAJobOfItsOwnWithOidcCredentials() throws IOException {
        JsonNode workflow = read("pull-request.yml");

        assertThat(workflow.path("on").has("pull_request")).isTrue();
        assertThat(workflow.path("permissions"))
                .as("nothing granted by default")
                .isEmpty();
        JsonNode jobs = workflow.path("jobs");
        JsonNode test = jobs.path("test");
        assertThat(test.path("permissions"))
                .as("the job running the pull request's build reads, nothing more")
                .isEqualTo(YAML.readTree("contents: read"));
        assertThat(runs(test)).contains("mvn -B verify");
        assertThat(test.toString()).doesNotContain("configure-aws-credentials", "id-token");

        JsonNode clusters = jobs.path("clusters");
        assertThat(clusters.path("needs").asText()).isEqualTo("test");
        assertThat(clusters.path("if").asText())
                .as("no plan of the example or without state")
                .contains("vars.TF_STATE_BUCKET != ''")
                .contains("vars.KARPENTER_TFVARS != ''");
        assertListsClustersWithoutCredentials(clusters);

        JsonNode plan = jobs.path("plan");
        assertThat(plan.path("needs").asText()).isEqualTo("clusters");
        assertOneJobPerCluster(plan);
        assertThat(plan.path("permissions"))
                .isEqualTo(YAML.readTree("{contents: read, id-token: write, pull-requests: write}"));
        List<String> runs = runs(plan);
        int synth = indexOf(runs, "bin/cdktf synth");
        int planStacks = indexOf(runs, "bin/plan-stacks");
        assertThat(synth).isNotNegative().isLessThan(planStacks);
        assertThat(runs.get(planStacks)).contains("--cluster \"$CLUSTER\"");
        JsonNode credentials = step(plan, "aws-actions/configure-aws-credentials");
        assertThat(credentials.path("with").path("role-to-assume").asText()).isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertCredentialsAfterEveryBuildStep(plan, "bin/plan-stacks");
        assertThat(githubScript(plan))
                .as("each job updates its own cluster's comment")
                .contains("/plans/${cluster}.md")
                .contains("<!-- karpenter-cdktf-plans ${cluster}.md -->")
                .contains("updateComment")
                .contains("createComment");
        assertThat(plan.path("env").path("KARPENTER_STATE_BUCKET").asText()).isEqualTo("${{ vars.TF_STATE_BUCKET }}");

        JsonNode summary = jobs.path("plans");
        assertThat(summary.path("name").asText())
                .as("the status check branch protection requires")
                .isEqualTo("synth and plan");
        assertThat(Json.texts(summary.path("needs"))).containsExactly("clusters", "plan");
        assertThat(summary.path("permissions")).isEmpty();
        assertCommonSetup(workflow, "pull-request.yml");
    }

    @Test
    void mainDeploysEachClusterInAJobOfItsOwnBehindAnEnvironment() throws IOException {
        JsonNode workflow = read("deploy.yml");
        JsonNode deploy = workflow.path("jobs").path("deploy");

        assertThat(workflow.path("on").path("push").path("branches").get(0).asText())
                .isEqualTo("main");
        assertThat(workflow.path("concurrency").path("cancel-in-progress").asBoolean(true))
                .isFalse();
        assertThat(workflow.path("permissions")).isEmpty();
        assertListsClustersWithoutCredentials(workflow.path("jobs").path("clusters"));
        assertThat(deploy.path("needs").asText()).isEqualTo("clusters");
        assertOneJobPerCluster(deploy);
        assertThat(deploy.path("environment").asText()).isEqualTo("production");
        assertThat(deploy.path("permissions")).isEqualTo(YAML.readTree("{contents: read, id-token: write}"));
        assertThat(runs(deploy))
                .as("Terraform alone, the cluster's stacks in dependency order, waiting for a lock held elsewhere")
                .anyMatch(r -> r.contains("bin/stacks apply --cluster \"$CLUSTER\" --lock-timeout 10m"));
        assertThat(step(deploy, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .isEqualTo("${{ vars.AWS_DEPLOY_ROLE_ARN }}");
        assertCredentialsAfterEveryBuildStep(deploy, "bin/stacks apply");
        String guard = runs(workflow.path("jobs").path("clusters")).get(0);
        assertThat(guard)
                .as("the first step refuses the example configuration and local state")
                .contains("terraform.tfvars.example")
                .contains("$KARPENTER_STATE_BUCKET")
                .contains("exit 1");
        assertCommonSetup(workflow, "deploy.yml");
    }

    @Test
    void everyNightEachClusterIsPlannedReadOnlyAndItsDriftIssueKept() throws IOException {
        JsonNode workflow = read("drift.yml");
        JsonNode drift = workflow.path("jobs").path("drift");

        assertThat(workflow.path("on").path("schedule").get(0).path("cron").asText())
                .matches("\\d+ \\d+ \\* \\* \\*");
        assertThat(workflow.path("permissions")).isEmpty();
        assertListsClustersWithoutCredentials(workflow.path("jobs").path("clusters"));
        assertThat(drift.path("needs").asText()).isEqualTo("clusters");
        assertOneJobPerCluster(drift);
        assertThat(drift.path("permissions"))
                .as("the read-only role, and issues, nothing else")
                .isEqualTo(YAML.readTree("{contents: read, id-token: write, issues: write}"));
        assertThat(step(drift, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertCredentialsAfterEveryBuildStep(drift, "bin/stacks plan");
        assertThat(runs(drift))
                .anyMatch(r -> r.contains("bin/stacks plan --cluster \"$CLUSTER\" --detailed-exitcode --report"));
        assertThat(githubScript(drift))
                .as("one issue per drifted cluster: opened, updated, closed when the drift is gone")
                .contains("<!-- karpenter-cdktf-drift ${cluster} -->")
                .contains("PLAN_STATUS === \"2\"")
                .contains("issues.create(")
                .contains("issues.update({ owner, repo, issue_number: existing.number, body })")
                .contains("state: \"closed\"");
        assertCommonSetup(workflow, "drift.yml");
    }

    /**
     * The required check runs whatever happened before it: a fork's pull request (no variables, no OIDC token) fails
     * it instead of passing unplanned, a repository without clusters passes it, and otherwise every plan must pass.
     */
    @Test
    void theRequiredCheckFailsAForksPullRequestAndAnyFailedPlan() throws Exception {
        JsonNode summary = read("pull-request.yml").path("jobs").path("plans");
        assertThat(summary.path("if").asText()).isEqualTo("${{ !cancelled() }}");
        String script = runs(summary).get(0);
        record Case(String fork, String configured, String clusters, String plan, int exit) {}
        for (Case c : List.of(
                new Case("true", "false", "skipped", "skipped", 1),
                new Case("false", "false", "skipped", "skipped", 0),
                new Case("false", "true", "success", "success", 0),
                new Case("false", "true", "success", "skipped", 0),
                new Case("false", "true", "success", "failure", 1),
                new Case("false", "true", "skipped", "skipped", 1))) {
            int exit = bash(
                    script,
                    temp,
                    Map.of(
                            "FORK",
                            c.fork(),
                            "CONFIGURED",
                            c.configured(),
                            "CLUSTERS_RESULT",
                            c.clusters(),
                            "PLAN_RESULT",
                            c.plan()));
            assertThat(exit).as(c.toString()).isEqualTo(c.exit());
        }
    }

    /** A cluster the base branch has and the pull request removes is named in a warning: merging destroys nothing. */
    @Test
    void aRemovedClusterIsWarnedOf() throws Exception {
        String script = step("pull-request.yml", "clusters", "Cluster removed");
        Path project = Files.createDirectories(temp.resolve("removed"));
        Path bin = Files.createDirectories(project.resolve("bin"));
        Files.writeString(bin.resolve("preview"), "#!/usr/bin/env bash\necho '{\"old\": {}, \"kept\": {}}'\n");
        Files.setPosixFilePermissions(bin.resolve("preview"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(project.resolve("base.tfvars"), "");

        assertThat(passing(script, project, Map.of("CLUSTERS", "[\"kept\",\"new\"]", "BASE_TFVARS", "base.tfvars")))
                .startsWith("::warning title=Cluster removed::old is in the base branch's configuration but not in"
                        + " this one.")
                .doesNotContain("kept is", "new is");

        // a base configuration this branch's code refuses is said, not taken for "no clusters"
        Files.writeString(bin.resolve("preview"), "#!/usr/bin/env bash\nexit 2\n");
        assertThat(passing(script, project, Map.of("CLUSTERS", "[\"kept\"]", "BASE_TFVARS", "base.tfvars")))
                .startsWith("::warning title=Base configuration unread::");
    }

    /** The script of the step of {@code job} in {@code workflow} that contains {@code text}. */
    private static String step(String workflow, String job, String text) throws IOException {
        return runs(read(workflow).path("jobs").path(job)).stream()
                .filter(r -> r.contains(text))
                .findFirst()
                .orElseThrow();
    }

    /** What {@code script} prints, run as a step runs it; it must succeed. */
    private static String passing(String script, Path dir, Map<String, String> env) throws Exception {
        Ran ran = ran(script, dir, env);
        assertThat(ran.exit()).as(ran.output()).isZero();
        return ran.output();
    }

    /** The drift job's plan step: status 0 and 2 (drift) pass on to the issue step; any other fails the job. */
    @Test
    void theDriftPlanStepPassesOnDriftAndFailsOnErrors() throws Exception {
        String script = step("drift.yml", "drift", "--detailed-exitcode");
        for (int status : new int[] {0, 1, 2, 64}) {
            Path project = Files.createDirectories(temp.resolve("drift-" + status));
            Path bin = Files.createDirectories(project.resolve("bin"));
            Files.writeString(bin.resolve("stacks"), "#!/usr/bin/env bash\nexit " + status + "\n");
            Files.setPosixFilePermissions(bin.resolve("stacks"), PosixFilePermissions.fromString("rwxr-xr-x"));
            Path output = project.resolve("github-output");
            int exit = bash(script, project, Map.of("GITHUB_OUTPUT", output.toString(), "CLUSTER", "c1"));
            assertThat(exit).as("status " + status).isEqualTo(status == 0 || status == 2 ? 0 : 1);
            assertThat(Files.readString(output)).isEqualTo("status=" + status + "\n");
        }
    }

    /** The job lists the synthesized clusters into its output, having built and synthesized, with no credentials. */
    private static void assertListsClustersWithoutCredentials(JsonNode clusters) throws IOException {
        assertThat(clusters.path("permissions")).isEqualTo(YAML.readTree("contents: read"));
        assertThat(clusters.toString()).doesNotContain("configure-aws-credentials", "id-token");
        assertThat(clusters.path("outputs").path("clusters").asText()).isEqualTo("${{ steps.list.outputs.clusters }}");
        List<String> runs = runs(clusters);
        assertThat(indexOf(runs, "bin/cdktf synth")).isNotNegative().isLessThan(indexOf(runs, "bin/stacks clusters"));
        assertThat(stepWithId(clusters, "list").path("run").asText())
                .isEqualTo("echo \"clusters=$(bin/stacks clusters)\" >> \"$GITHUB_OUTPUT\"");
    }

    /** A matrix of the listed clusters, bounded, where one cluster's failure cancels no other. */
    private static void assertOneJobPerCluster(JsonNode job) {
        JsonNode strategy = job.path("strategy");
        assertThat(strategy.path("fail-fast").asBoolean(true)).isFalse();
        assertThat(strategy.path("max-parallel").asInt()).isBetween(1, 20);
        assertThat(strategy.path("matrix").path("cluster").asText())
                .isEqualTo("${{ fromJSON(needs.clusters.outputs.clusters) }}");
        assertThat(job.path("if").asText()).isEqualTo("needs.clusters.outputs.clusters != '[]'");
        assertThat(job.path("env").path("CLUSTER").asText()).isEqualTo("${{ matrix.cluster }}");
    }

    /** The deploy guard, run as the workflow runs it: it refuses the example, a missing variable, no bucket. */
    @Test
    void theDeployGuardRefusesTheExampleAndLocalState() throws Exception {
        String guard = runs(read("deploy.yml").path("jobs").path("clusters")).get(0);
        assertThat(runGuard(guard, "", "bucket")).isEqualTo(1);
        assertThat(runGuard(guard, "terraform.tfvars.example", "bucket")).isEqualTo(1);
        assertThat(runGuard(guard, "clusters/", "")).isEqualTo(1);
        assertThat(runGuard(guard, "clusters/", "bucket")).isZero();
    }

    static int bash(String script, Path dir, Map<String, String> env) throws Exception {
        return ran(script, dir, env).exit();
    }

    private record Ran(int exit, String output) {}

    /** {@code script} run as a step runs it (bash -e, in {@code dir}, with {@code env} added). */
    private static Ran ran(String script, Path dir, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-c", script)
                .directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        return new Ran(process.exitValue(), output);
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
                String uses = step.path("uses").asText();
                if (uses.startsWith("actions/checkout@")) {
                    assertThat(step.path("with").path("persist-credentials").asBoolean(true))
                            .isFalse();
                }
                if (uses.startsWith("hashicorp/setup-terraform@")) {
                    assertThat(step.path("with").path("terraform_wrapper").asBoolean(true))
                            .isFalse();
                }
                if (uses.startsWith("actions/setup-java@")) {
                    assertThat(step.path("with").path("cache").asText()).isEqualTo("maven");
                }
                if (uses.startsWith("actions/setup-node@")) {
                    assertThat(step.path("with").path("cache").asText()).isEqualTo("npm");
                }
            }
            if (job.toString().contains("terraform ")
                    || job.toString().contains("bin/stacks plan")
                    || job.toString().contains("bin/stacks apply")
                    || job.toString().contains("bin/plan-stacks")) {
                step(job, "hashicorp/setup-terraform");
            }
        });
    }

    /**
     * The errors the validator reports for each file, all files in one Node.js start: a start and the library's
     * load cost more than validating. It calls the library the CLI runs, as the CLI does for a workflow file.
     */
    private static Map<Path, JsonNode> validate(List<Path> files) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(
                List.of("node", "-e", """
                const fs = require("fs");
                const [library, ...files] = process.argv.slice(1);
                const validator = require(library);
                console.log(JSON.stringify(files.map(file => validator.validateWorkflow(fs.readFileSync(file, "utf8")).errors)));
                """, VALIDATOR.toAbsolutePath().toString()));
        files.forEach(file -> command.add(file.toAbsolutePath().toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        JsonNode errors = Json.parse(output);
        Map<Path, JsonNode> byFile = new LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            byFile.put(files.get(i), errors.get(i));
        }
        return byFile;
    }

    static JsonNode read(String name) throws IOException {
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

    static JsonNode stepWithId(JsonNode job, String id) {
        for (JsonNode step : job.path("steps")) {
            if (step.path("id").asText().equals(id)) {
                return step;
            }
        }
        throw new AssertionError("no step with id " + id);
    }

    private static JsonNode step(JsonNode job, String action) {
        for (JsonNode step : job.path("steps")) {
            if (step.path("uses").asText().startsWith(action + "@")) {
                return step;
            }
        }
        throw new AssertionError("no step uses " + action);
    }

    /** The script of the job's actions/github-script step. */
    private static String githubScript(JsonNode job) {
        return step(job, "actions/github-script").path("with").path("script").asText();
    }
}
