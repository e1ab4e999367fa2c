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
 * doing what CI promises: in each workflow one job builds (tests on pull requests) and synthesizes once, and hands
 * the output on as one bundle (libexec/ci-bundle); one job per cluster then runs from the bundle, without Maven, a
 * synth or Node.js: plans with OIDC credentials on pull requests; on main, saved plans, then after the production
 * environment's approval exactly those plans applied, their SHA-256 checked first; a nightly read-only plan per
 * cluster and one fleet table and drift issue.
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
    void pullRequestsBuildTestAndSynthesizeOnceThenPlanEachClusterInAJobOfItsOwn() throws IOException {
        JsonNode workflow = read("pull-request.yml");

        assertThat(workflow.path("on").has("pull_request")).isTrue();
        assertThat(workflow.path("permissions"))
                .as("nothing granted by default")
                .isEmpty();
        JsonNode jobs = workflow.path("jobs");
        assertThat(Json.fieldNames(jobs)).containsExactly("test", "plan", "plans");
        JsonNode test = jobs.path("test");
        assertBuildsOnceAndBundles(workflow, "test", "mvn -B verify");
        // The tests read upstream's files from a mirror and run promtool; under CI=true both are required.
        List<String> runs = new ArrayList<>();
        test.path("steps").forEach(step -> runs.add(step.path("run").asText()));
        int verify = indexOf(runs, "mvn -B verify");
        assertThat(indexOf(runs, "libexec/fetch-upstream --into \"$RUNNER_TEMP/upstream\""))
                .isNotNegative()
                .isLessThan(verify);
        assertThat(indexOf(runs, "install -y -q --no-install-recommends prometheus"))
                .isNotNegative()
                .isLessThan(verify);
        assertThat(test.path("steps")
                        .get(verify)
                        .path("env")
                        .path("KARPENTER_UPSTREAM_MIRROR")
                        .asText())
                .isEqualTo("${{ runner.temp }}/upstream");
        assertThat(stepWithId(test, "bundle").path("run").asText())
                .as("the base branch's preview, once, for every cluster's report")
                .isEqualTo("libexec/ci-bundle --previews \"$RUNNER_TEMP/bundle.tar\"");
        assertThat(stepWithId(test, "bundle")
                        .path("env")
                        .path("KARPENTER_PREVIEW_BASE")
                        .asText())
                .isEqualTo(".base-branch/${{ vars.KARPENTER_TFVARS }}");
        List<String> testEnvironment = new ArrayList<>(Json.fieldNames(test.path("env")));
        testEnvironment.addAll(Json.fieldNames(stepNamed(test, "Build and test").path("env")));
        assertThat(testEnvironment)
                .as("the tests run on their own configurations, not the repository's clusters")
                .doesNotContain("KARPENTER_TFVARS", "KARPENTER_STATE_BUCKET", "KARPENTER_STATE_REGION");
        assertThat(test.path("env").path("CONFIGURED").asText())
                .as("no synth or plan of the example or without state")
                .contains("vars.TF_STATE_BUCKET != ''")
                .contains("vars.KARPENTER_TFVARS != ''");

        JsonNode plan = jobs.path("plan");
        assertOneJobPerClusterFromTheBundle(plan, "test");
        assertThat(plan.path("if").asText())
                .isEqualTo("needs.test.outputs.clusters != '' && " + "needs.test.outputs.clusters != '[]'");
        assertThat(plan.path("permissions"))
                .isEqualTo(YAML.readTree("{contents: read, id-token: write, pull-requests: write}"));
        assertThat(runs(plan))
                .anyMatch(r -> r.contains("\"$BUNDLE/libexec/ci-plan\" \"$CLUSTER\" \"$RUNNER_TEMP/plans\""));
        JsonNode credentials = step(plan, "aws-actions/configure-aws-credentials");
        assertThat(credentials.path("with").path("role-to-assume").asText()).isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertCredentialsAfterEveryInstallStep(plan, "libexec/ci-plan");
        assertThat(githubScript(plan))
                .as("each job updates its own cluster's comment")
                .contains("/plans/${cluster}.md")
                .contains("<!-- karpenter-cdktf-plans ${cluster}.md -->")
                .contains("updateComment")
                .contains("createComment");

        JsonNode summary = jobs.path("plans");
        assertThat(summary.path("name").asText())
                .as("the status check branch protection requires")
                .isEqualTo("synth and plan");
        assertThat(Json.texts(summary.path("needs"))).containsExactly("test", "plan");
        assertThat(summary.path("permissions")).isEmpty();
        assertCommonSetup(workflow, "pull-request.yml");
    }

    @Test
    void mainPlansEachClusterSavesThePlansAndAppliesExactlyThemAfterApproval() throws IOException {
        JsonNode workflow = read("deploy.yml");
        JsonNode jobs = workflow.path("jobs");

        assertThat(workflow.path("on").path("push").path("branches").get(0).asText())
                .isEqualTo("main");
        assertThat(workflow.path("concurrency").path("cancel-in-progress").asBoolean(true))
                .isFalse();
        assertThat(workflow.path("permissions")).isEmpty();
        assertThat(Json.fieldNames(jobs)).containsExactly("build", "plan", "apply");
        assertBuildsOnceAndBundles(workflow, "build", "mvn -B -DskipTests -DskipITs package");
        String guard = runs(jobs.path("build")).get(0);
        assertThat(guard)
                .as("the first step refuses the example configuration and local state")
                .contains("terraform.tfvars.example")
                .contains("$KARPENTER_STATE_BUCKET")
                .contains("exit 1");

        JsonNode plan = jobs.path("plan");
        assertOneJobPerClusterFromTheBundle(plan, "build");
        assertThat(plan.has("environment")).as("planning needs no approval").isFalse();
        assertThat(plan.path("permissions")).isEqualTo(YAML.readTree("{contents: read, id-token: write}"));
        assertThat(step(plan, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .as("plans are read-only, also on main")
                .isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertThat(runs(plan))
                .contains(
                        "\"$BUNDLE/libexec/ci-plan\" \"$CLUSTER\" \"$RUNNER_TEMP/reports\" --out \"$RUNNER_TEMP/plans\"");
        assertCredentialsAfterEveryInstallStep(plan, "libexec/ci-plan");
        JsonNode saved = step(plan, "actions/upload-artifact");
        assertThat(saved.path("with").path("name").asText()).isEqualTo("plans-${{ matrix.cluster }}");
        assertThat(saved.path("with").path("path").asText())
                .isEqualTo("${{ runner.temp }}/plans/${{ matrix.cluster }}");

        JsonNode apply = jobs.path("apply");
        assertOneJobPerClusterFromTheBundle(apply, "build");
        assertThat(Json.texts(apply.path("needs"))).containsExactly("build", "plan");
        assertThat(apply.path("environment").asText()).isEqualTo("production");
        assertThat(apply.path("permissions")).isEqualTo(YAML.readTree("{contents: read, id-token: write}"));
        assertThat(steps(apply, "actions/download-artifact"))
                .extracting(s -> s.path("with").path("name").asText())
                .containsExactly("bundle", "plans-${{ matrix.cluster }}");
        assertThat(step(apply, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .isEqualTo("${{ vars.AWS_DEPLOY_ROLE_ARN }}");
        assertThat(runs(apply)).contains("\"$BUNDLE/libexec/ci-apply\" \"$CLUSTER\" \"$RUNNER_TEMP/plans\"");
        assertThat(runs(apply)).noneMatch(r -> r.contains("bin/stacks apply") || r.contains("ci-plan"));
        assertThat(Files.readString(Path.of("libexec/ci-apply")))
                .as("the saved plans and nothing else, each file's SHA-256 checked first by bin/stacks apply --plans")
                .contains("\"$here/bin/stacks\" apply --plans \"$plans\" --cluster \"$cluster\" --lock-timeout 10m");
        assertCredentialsAfterEveryInstallStep(apply, "libexec/ci-apply");
        assertCommonSetup(workflow, "deploy.yml");
    }

    @Test
    void everyNightEachClusterIsPlannedReadOnlyAndOneFleetTableAndIssueKept() throws IOException {
        JsonNode workflow = read("drift.yml");
        JsonNode jobs = workflow.path("jobs");

        assertThat(workflow.path("on").path("schedule").get(0).path("cron").asText())
                .matches("\\d+ \\d+ \\* \\* \\*");
        assertThat(workflow.path("permissions")).isEmpty();
        assertThat(Json.fieldNames(jobs)).containsExactly("build", "drift", "fleet");
        assertBuildsOnceAndBundles(workflow, "build", "mvn -B -DskipTests -DskipITs package");
        JsonNode drift = jobs.path("drift");
        assertOneJobPerClusterFromTheBundle(drift, "build");
        assertThat(drift.path("permissions"))
                .as("the read-only role, nothing else")
                .isEqualTo(YAML.readTree("{contents: read, id-token: write}"));
        assertThat(step(drift, "aws-actions/configure-aws-credentials")
                        .path("with")
                        .path("role-to-assume")
                        .asText())
                .isEqualTo("${{ vars.AWS_PLAN_ROLE_ARN }}");
        assertCredentialsAfterEveryInstallStep(drift, "libexec/ci-plan");
        assertThat(runs(drift))
                .anyMatch(r -> r.contains(
                        "\"$BUNDLE/libexec/ci-plan\" \"$CLUSTER\" \"$RUNNER_TEMP/drift\" --detailed-exitcode"));

        JsonNode fleet = jobs.path("fleet");
        assertThat(fleet.path("if").asText()).contains("!cancelled()");
        assertThat(fleet.path("permissions"))
                .as("the issue, and no credentials")
                .isEqualTo(YAML.readTree("issues: write"));
        assertThat(fleet.toString()).doesNotContain("configure-aws-credentials", "id-token", "mvn ");
        assertThat(runs(fleet))
                .contains("\"$BUNDLE/libexec/ci-drift\" --issue \"$RUNNER_TEMP/drift\" \"$BUNDLE/clusters.json\"");
        assertCommonSetup(workflow, "drift.yml");
    }

    /**
     * One Maven build in the whole workflow, in {@code buildJob}, which also synthesizes, bundles and uploads the
     * bundle, with a read-only token and no cloud credentials; no other job builds, synthesizes or installs Node.js.
     */
    private static void assertBuildsOnceAndBundles(JsonNode workflow, String buildJob, String maven)
            throws IOException {
        List<String> mavenRuns = new ArrayList<>();
        List<String> synths = new ArrayList<>();
        workflow.path("jobs").fields().forEachRemaining(job -> {
            for (String run : runs(job.getValue())) {
                if (run.matches("(?s).*\\bmvn .*")) {
                    mavenRuns.add(job.getKey() + ": " + run);
                }
                if (run.contains("cdktf synth") || run.contains("libexec/app")) {
                    synths.add(job.getKey() + ": " + run);
                }
            }
            if (!job.getKey().equals(buildJob)) {
                assertThat(job.getValue().toString())
                        .as(job.getKey() + " builds nothing")
                        .doesNotContain("actions/setup-node", "cache: maven", "bin/preview");
            }
        });
        assertThat(mavenRuns).as("one Maven build per workflow").containsExactly(buildJob + ": " + maven);
        assertThat(synths).as("one synth per workflow").containsExactly(buildJob + ": bin/cdktf synth");
        JsonNode build = workflow.path("jobs").path(buildJob);
        assertThat(build.path("permissions"))
                .as("the job running the build reads, nothing more")
                .isEqualTo(YAML.readTree("contents: read"));
        assertThat(build.toString()).doesNotContain("configure-aws-credentials", "id-token");
        assertThat(build.path("outputs").path("clusters").asText()).isEqualTo("${{ steps.bundle.outputs.clusters }}");
        List<String> runs = runs(build);
        assertThat(indexOf(runs, "bin/cdktf synth")).isNotNegative().isLessThan(indexOf(runs, "libexec/ci-bundle"));
        assertThat(indexOf(runs, "mvn ")).isLessThan(indexOf(runs, "bin/cdktf synth"));
        JsonNode upload = steps(build, "actions/upload-artifact").stream()
                .filter(s -> s.path("with").path("name").asText().equals("bundle"))
                .findFirst()
                .orElseThrow();
        assertThat(upload.path("with").path("path").asText()).isEqualTo("${{ runner.temp }}/bundle.tar");
    }

    /**
     * A matrix of the clusters the build job listed, bounded, where one cluster's failure cancels no other; the job
     * runs from the build job's bundle: no checkout, no Maven, no synth, no Node.js; Java and Terraform only.
     */
    private static void assertOneJobPerClusterFromTheBundle(JsonNode job, String buildJob) {
        JsonNode strategy = job.path("strategy");
        assertThat(strategy.path("fail-fast").asBoolean(true)).isFalse();
        assertThat(strategy.path("max-parallel").asInt()).isBetween(1, 20);
        assertThat(strategy.path("matrix").path("cluster").asText())
                .isEqualTo("${{ fromJSON(needs." + buildJob + ".outputs.clusters) }}");
        assertThat(job.path("if").asText()).contains("needs." + buildJob + ".outputs.clusters != '[]'");
        assertThat(job.path("env").path("CLUSTER").asText()).isEqualTo("${{ matrix.cluster }}");
        List<String> uses = new ArrayList<>();
        job.path("steps").forEach(step -> {
            if (step.has("uses")) {
                uses.add(step.path("uses").asText().replaceFirst("@.*", ""));
            }
        });
        assertThat(uses)
                .as("what a per-cluster job installs and uses")
                .isSubsetOf(
                        "actions/download-artifact",
                        "actions/setup-java",
                        "hashicorp/setup-terraform",
                        "aws-actions/configure-aws-credentials",
                        "actions/upload-artifact",
                        "actions/github-script")
                .contains("actions/download-artifact", "actions/setup-java", "hashicorp/setup-terraform");
        assertThat(step(job, "actions/download-artifact")
                        .path("with")
                        .path("name")
                        .asText())
                .isEqualTo("bundle");
        assertThat(step(job, "actions/setup-java").path("with").has("cache"))
                .as("nothing is built: no Maven cache")
                .isFalse();
        assertThat(job.toString()).doesNotContain("mvn ", "cdktf synth", "libexec/app", "bin/plan-stacks");
        assertThat(runs(job)).contains("mkdir -p \"$BUNDLE\" && tar -xf \"$RUNNER_TEMP/bundle.tar\" -C \"$BUNDLE\"");
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
        record Case(String fork, String configured, String build, String plan, int exit) {}
        for (Case c : List.of(
                new Case("true", "false", "skipped", "skipped", 1),
                new Case("false", "false", "skipped", "skipped", 0),
                new Case("false", "true", "success", "success", 0),
                new Case("false", "true", "success", "skipped", 0),
                new Case("false", "true", "success", "failure", 1),
                new Case("false", "true", "failure", "skipped", 1))) {
            int exit = bash(
                    script,
                    temp,
                    Map.of(
                            "FORK",
                            c.fork(),
                            "CONFIGURED",
                            c.configured(),
                            "BUILD_RESULT",
                            c.build(),
                            "PLAN_RESULT",
                            c.plan()));
            assertThat(exit).as(c.toString()).isEqualTo(c.exit());
        }
    }

    /** The script of the step of {@code job} in {@code workflow} that contains {@code text}. */
    private static String step(String workflow, String job, String text) throws IOException {
        return runs(read(workflow).path("jobs").path(job)).stream()
                .filter(r -> r.contains(text))
                .findFirst()
                .orElseThrow();
    }

    /** The drift job's plan step: status 0 and 2 (drift) pass; any other fails the job (the fleet table says why). */
    @Test
    void theDriftPlanStepPassesOnDriftAndFailsOnErrors() throws Exception {
        String script = step("drift.yml", "drift", "--detailed-exitcode");
        for (int status : new int[] {0, 1, 2, 64}) {
            Path bundle = Files.createDirectories(temp.resolve("drift-" + status));
            Path libexec = Files.createDirectories(bundle.resolve("libexec"));
            Files.writeString(libexec.resolve("ci-plan"), "#!/usr/bin/env bash\nexit " + status + "\n");
            Files.setPosixFilePermissions(libexec.resolve("ci-plan"), PosixFilePermissions.fromString("rwxr-xr-x"));
            int exit = bash(
                    script,
                    bundle,
                    Map.of("BUNDLE", bundle.toString(), "CLUSTER", "c1", "RUNNER_TEMP", temp.toString()));
            assertThat(exit).as("status " + status).isEqualTo(status == 0 || status == 2 ? 0 : 1);
        }
    }

    /** The deploy guard, run as the workflow runs it: it refuses the example, a missing variable, no bucket. */
    @Test
    void theDeployGuardRefusesTheExampleAndLocalState() throws Exception {
        String guard = runs(read("deploy.yml").path("jobs").path("build")).get(0);
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
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(output).isTrue();
        return new Ran(process.exitValue(), output);
    }

    private static int runGuard(String script, String tfvars, String bucket) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-e", "-c", script).redirectErrorStream(true);
        builder.environment().put("KARPENTER_TFVARS", tfvars);
        builder.environment().put("KARPENTER_STATE_BUCKET", bucket);
        Process process = builder.start();
        process.getInputStream().readAllBytes();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return process.exitValue();
    }

    /**
     * Every step before the credentials downloads, unpacks or installs; the credentials come right before {@code user},
     * and no step after them installs anything.
     */
    private static void assertCredentialsAfterEveryInstallStep(JsonNode job, String user) {
        List<JsonNode> steps = new ArrayList<>();
        job.path("steps").forEach(steps::add);
        int credentials = -1;
        int lastInstall = -1;
        int firstUse = -1;
        for (int i = 0; i < steps.size(); i++) {
            String text = steps.get(i).toString();
            if (text.contains("configure-aws-credentials")) {
                credentials = i;
            }
            if (text.contains("mvn ")
                    || text.contains("setup-")
                    || text.contains("npm ")
                    || text.contains("download-artifact")
                    || text.contains("tar -xf")
                    || text.contains("cdktf synth")) {
                lastInstall = i;
            }
            if (firstUse < 0 && text.contains(user)) {
                firstUse = i;
            }
        }
        assertThat(credentials).isGreaterThan(lastInstall).isLessThan(firstUse);
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
                if (uses.startsWith("actions/setup-java@") && job.toString().contains("mvn ")) {
                    assertThat(step.path("with").path("cache").asText()).isEqualTo("maven");
                }
                if (uses.startsWith("actions/setup-node@")) {
                    assertThat(step.path("with").path("cache").asText()).isEqualTo("npm");
                }
            }
            if (job.toString().contains("terraform ")
                    || job.toString().contains("bin/stacks plan")
                    || job.toString().contains("bin/stacks apply")
                    || job.toString().contains("libexec/ci-plan")
                    || job.toString().contains("libexec/ci-apply")) {
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
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
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

    private static JsonNode stepNamed(JsonNode job, String name) {
        for (JsonNode step : job.path("steps")) {
            if (step.path("name").asText().equals(name)) {
                return step;
            }
        }
        throw new AssertionError("no step named " + name);
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

    private static List<JsonNode> steps(JsonNode job, String action) {
        List<JsonNode> steps = new ArrayList<>();
        for (JsonNode step : job.path("steps")) {
            if (step.path("uses").asText().startsWith(action + "@")) {
                steps.add(step);
            }
        }
        return steps;
    }

    /** The script of the job's actions/github-script step. */
    private static String githubScript(JsonNode job) {
        return step(job, "actions/github-script").path("with").path("script").asText();
    }
}
