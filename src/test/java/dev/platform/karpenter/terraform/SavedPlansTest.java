package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.testing.Console;
import dev.platform.karpenter.testing.Json;
import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/stacks plan --out and apply --plans against a stand-in terraform that records each call and, for plan -out,
 * writes a plan file whose content names the stack: what is saved and checked, which files are applied in which
 * order, and what stops an apply. Terraform's own behaviour (stale plans, plans read back) is SavedPlansIT's.
 */
@KernelOnlyThroughSynthesized
class SavedPlansTest {
    private static final String MANIFEST = """
            {"version": "0.19.2", "stacks": {
              "demo-iam": {"workingDirectory": "stacks/demo-iam", "dependencies": []},
              "demo-interruption": {"workingDirectory": "stacks/demo-interruption", "dependencies": []},
              "demo-karpenter": {"workingDirectory": "stacks/demo-karpenter",
                                 "dependencies": ["demo-iam", "demo-interruption"]},
              "demo-nodepools": {"workingDirectory": "stacks/demo-nodepools",
                                 "dependencies": ["demo-karpenter", "demo-iam"]}}}
            """;

    /** plan: karpenter never applied (nodepools waits), interruption without changes, iam with changes. */
    private static final String FIRST_DEPLOY = """
            if [ "$1" != plan ]; then exit 0; fi
            for a in "$@"; do case "$a" in -out=*) echo "plan of $STACK" > "${a#-out=}";; esac; done
            if [ "$STACK" = demo-karpenter ]; then echo 'Error: Unable to find remote state' >&2; exit 1; fi
            if [ "$STACK" = demo-interruption ]; then echo "No changes."; exit 0; fi
            echo "Plan: 3 to add, 0 to change, 0 to destroy."; exit 2
            """;

    @TempDir
    Path temp;

    private Path outdir;
    private Path plans;
    private Path calls;
    private final Console console = new Console();

    @BeforeEach
    void synthesizedOutput() throws IOException {
        outdir = StacksCommandTest.writeOutput(temp.resolve("out"), MANIFEST);
        plans = temp.resolve("plans");
    }

    @Test
    void planOutSavesEachPlanWithItsSha256AndTheReportShowsIt() throws Exception {
        assertThat(run(
                        FIRST_DEPLOY,
                        "plan",
                        "--out",
                        plans.toString(),
                        "--report",
                        temp.resolve("md").toString()))
                .isZero();

        Path demo = plans.resolve("demo");
        assertThat(calls())
                .contains("demo-iam plan -input=false -no-color -lock=false -detailed-exitcode -out="
                        + demo.resolve("demo-iam.tfplan"));
        try (var files = Files.list(demo)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("a stack that could not be planned leaves no file")
                    .containsExactlyInAnyOrder(
                            "plans.json", "SHA256SUMS", "demo-iam.tfplan", "demo-interruption.tfplan");
        }
        String iamSha = SavedPlans.sha256(demo.resolve("demo-iam.tfplan"));
        assertThat(iamSha).isEqualTo(SavedPlans.sha256("plan of demo-iam\n"));
        JsonNode manifest = Json.read(demo.resolve("plans.json"));
        assertThat(manifest.path("cluster").asText()).isEqualTo("demo");
        assertThat(manifest.path("stacks").findValuesAsText("stack"))
                .containsExactly("demo-iam", "demo-interruption", "demo-karpenter", "demo-nodepools");
        JsonNode iam = manifest.path("stacks").get(0);
        assertThat(iam.path("outcome").asText()).isEqualTo("CHANGES");
        assertThat(iam.path("sha256").asText()).isEqualTo(iamSha);
        assertThat(iam.path("configuration_sha256").asText())
                .isEqualTo(SavedPlans.sha256(outdir.resolve("stacks/demo-iam/cdk.tf.json")));
        assertThat(manifest.path("stacks").get(2).has("file")).isFalse();
        assertThat(manifest.path("stacks").get(2).path("outcome").asText()).isEqualTo("WAITING");
        assertThat(Files.readAllLines(demo.resolve("SHA256SUMS")))
                .containsExactly(
                        iamSha + "  demo-iam.tfplan",
                        SavedPlans.sha256(demo.resolve("demo-interruption.tfplan")) + "  demo-interruption.tfplan");
        assertThat(Files.readString(temp.resolve("md/demo.md")))
                .contains("| stack | plan | plan file SHA-256 |")
                .contains("| `demo-iam` | ✏️ changes: Plan: 3 to add, 0 to change, 0 to destroy. | `" + iamSha + "` |")
                .contains("| `demo-nodepools` | ⏳ waiting: waits for demo-karpenter | |");
        JsonNode outcomes = Json.read(temp.resolve("md/demo.json"));
        assertThat(outcomes.path("cluster").asText()).isEqualTo("demo");
        assertThat(outcomes.path("stacks").get(0).toString())
                .as("the outcomes for scripts (the drift's fleet table)")
                .isEqualTo("{\"stack\":\"demo-iam\",\"concern\":\"iam\",\"outcome\":\"changes\",\"detail\":\"Plan: 3 to"
                        + " add, 0 to change, 0 to destroy.\",\"sha256\":\"" + iamSha + "\"}");
        assertThat(outcomes.path("stacks").get(3).path("outcome").asText()).isEqualTo("waiting");
    }

    @Test
    void applyPlansAppliesTheSavedFilesInOrderAndStopsWhereNothingWasPlanned() throws Exception {
        run(FIRST_DEPLOY, "plan", "--out", plans.toString());
        Files.delete(calls);

        int status = run(
                "echo \"Apply complete! Resources: 3 added, 0 changed, 0 destroyed.\"",
                "apply",
                "--plans",
                plans.toString());

        assertThat(status).isEqualTo(StacksCommand.EXIT_PLAN_AGAIN);
        Path demo = plans.resolve("demo");
        assertThat(calls())
                .as("only plans with changes are applied; nothing is planned afresh")
                .containsExactly(
                        "demo-iam init -input=false -no-color -lock-timeout=10m",
                        "demo-iam apply -input=false -no-color -lock-timeout=10m " + demo.resolve("demo-iam.tfplan"),
                        "demo-interruption init -input=false -no-color -lock-timeout=10m");
        assertThat(console.stdout())
                .contains("demo  STOPPED  applied 1: demo-iam | no changes 1: demo-interruption | skipped 1:"
                        + " demo-nodepools | not planned 1: demo-karpenter")
                .contains("demo-karpenter: no saved plan: it could not be planned before the stacks it reads were"
                        + " applied (a stack it reads was never applied (first deploy)); re-run the plan now")
                .contains("re-run the plan, review and approve it, then apply it.");
    }

    @Test
    void aPlanFileChangedAfterPlanningStopsTheClusterBeforeAnythingIsApplied() throws Exception {
        run(FIRST_DEPLOY, "plan", "--out", plans.toString());
        Path file = plans.resolve("demo/demo-interruption.tfplan");
        String planned = SavedPlans.sha256(file);
        Files.writeString(file, "another plan\n");
        Files.delete(calls);

        assertThat(run("echo ok", "apply", "--plans", plans.toString())).isEqualTo(StacksCommand.EXIT_FAILED);

        assertThat(calls()).as("no terraform at all").isEmpty();
        assertThat(console.stdout())
                .contains("demo-iam: plan file " + file + " has SHA-256 " + SavedPlans.sha256(file)
                        + ", not the planned " + planned + ": the plan set changed after planning; nothing applied");
    }

    @Test
    void aPlanOfAnotherSynthesizedOutputIsRefused() throws Exception {
        run(FIRST_DEPLOY, "plan", "--out", plans.toString());
        Files.writeString(outdir.resolve("stacks/demo-iam/cdk.tf.json"), "{\"terraform\": {}}");
        Files.delete(calls);

        assertThat(run("echo ok", "apply", "--plans", plans.toString())).isEqualTo(StacksCommand.EXIT_FAILED);

        assertThat(calls()).isEmpty();
        assertThat(console.stdout())
                .contains("demo-iam was planned from another configuration than the synthesized output's");
    }

    @Test
    void aStalePlanIsReportedWithWhatToDo() throws Exception {
        run(FIRST_DEPLOY, "plan", "--out", plans.toString());

        int status = run("""
                if [ "$1" = apply ]; then
                  printf '\\n│ Error: Saved plan is stale\\n│\\n│ The given plan file can no longer be applied\\n'; exit 1
                fi
                """, "apply", "--plans", plans.toString());

        assertThat(status).isEqualTo(StacksCommand.EXIT_PLAN_AGAIN);
        assertThat(console.stdout())
                .contains("demo  STOPPED  skipped 3: demo-interruption, demo-karpenter, demo-nodepools | stale plan 1:"
                        + " demo-iam")
                .contains("demo-iam: Terraform refused the saved plan: the stack's state changed after it was planned"
                        + " (another apply ran since); re-run the plan and approve the new one");
    }

    @Test
    void savedPlansAreOptionsOfTheirOwnCommandsOnly() throws Exception {
        assertThat(run("exit 0", "apply", "--out", plans.toString())).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains("--out is an option of plan only");
        assertThat(run("exit 0", "plan", "--plans", plans.toString())).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains("--plans is an option of apply only");
        assertThat(run("exit 0", "apply", "--plans", plans.toString(), "--concern", "iam"))
                .isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains("apply --plans applies the stacks that were planned");
        assertThat(run("exit 0", "apply", "--plans", plans.toString())).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr().strip())
                .isEqualTo("error: " + plans + " holds no saved plans of a cluster of " + outdir
                        + " (bin/stacks plan --out " + plans + " makes them)");
        assertThat(run("exit 0", "apply", "--plans", plans.toString(), "--cluster", "demo"))
                .isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains(plans.resolve("demo/plans.json") + " does not exist");
        assertThat(calls()).isEmpty();
    }

    private int run(String body, String... args) throws IOException {
        Path fake = temp.resolve("terraform");
        calls = temp.resolve("calls");
        Files.writeString(fake, """
                #!/bin/sh
                STACK=${PWD##*/}
                echo "$STACK $*" >> "$CALLS"
                """ + body + "\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("TERRAFORM", fake.toString());
        env.put("CALLS", calls.toString());
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--outdir", outdir.toString()));
        console.reset();
        return StacksCommand.run(temp, all.toArray(String[]::new), env, console.out(), console.err());
    }

    private List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }
}
