package dev.platform.karpenter.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.Console;
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
 * bin/stacks' logic, run against a stand-in terraform that records each call ("<stack directory> <arguments>") and
 * answers like Terraform would: order, filters, parallel clusters, failures, the summary and the plan reports.
 */
@KernelOnlyThroughSynthesized
class StacksCommandTest {
    /** Two clusters as the app writes them: dependencies listed, stacks in the order the app adds them. */
    private static final String MANIFEST = """
            {"version": "0.19.2", "stacks": {
              "demo-iam": {"workingDirectory": "stacks/demo-iam", "dependencies": []},
              "demo-interruption": {"workingDirectory": "stacks/demo-interruption", "dependencies": []},
              "demo-karpenter": {"workingDirectory": "stacks/demo-karpenter",
                                 "dependencies": ["demo-iam", "demo-interruption"]},
              "demo-nodepools": {"workingDirectory": "stacks/demo-nodepools",
                                 "dependencies": ["demo-karpenter", "demo-iam"]},
              "other-iam": {"workingDirectory": "stacks/other-iam", "dependencies": []},
              "other-interruption": {"workingDirectory": "stacks/other-interruption", "dependencies": []},
              "other-karpenter": {"workingDirectory": "stacks/other-karpenter",
                                  "dependencies": ["other-iam", "other-interruption"]},
              "other-nodepools": {"workingDirectory": "stacks/other-nodepools",
                                  "dependencies": ["other-karpenter", "other-iam"]}}}
            """;

    @TempDir
    Path temp;

    private Path outdir;
    private final Console console = new Console();

    @BeforeEach
    void synthesizedOutput() throws IOException {
        outdir = writeOutput(temp.resolve("out"), MANIFEST);
    }

    static Path writeOutput(Path outdir, String manifest) throws IOException {
        Files.createDirectories(outdir);
        Files.writeString(outdir.resolve("manifest.json"), manifest);
        var stacks = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(manifest)
                .path("stacks")
                .fieldNames();
        while (stacks.hasNext()) {
            String stack = stacks.next();
            String providers = stack.endsWith("-iam") || stack.endsWith("-interruption")
                    ? "{\"aws\": {}}"
                    : "{\"aws\": {}, \"helm\": {}}";
            Files.writeString(
                    Files.createDirectories(outdir.resolve("stacks").resolve(stack))
                            .resolve("cdk.tf.json"),
                    "{\"terraform\": {\"required_providers\": " + providers + "}}");
        }
        return outdir;
    }

    @Test
    void appliesEachClustersStacksInDependencyOrderWithALockTimeout() throws Exception {
        int status = run("echo ok", "apply", "--parallel", "1");

        assertThat(status).isZero();
        assertThat(calls())
                .containsExactly(
                        "demo-iam init -input=false -no-color -lock-timeout=10m",
                        "demo-iam apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "demo-interruption init -input=false -no-color -lock-timeout=10m",
                        "demo-interruption apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "demo-karpenter init -input=false -no-color -lock-timeout=10m",
                        "demo-karpenter apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "demo-nodepools init -input=false -no-color -lock-timeout=10m",
                        "demo-nodepools apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "other-iam init -input=false -no-color -lock-timeout=10m",
                        "other-iam apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "other-interruption init -input=false -no-color -lock-timeout=10m",
                        "other-interruption apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "other-karpenter init -input=false -no-color -lock-timeout=10m",
                        "other-karpenter apply -input=false -no-color -auto-approve -lock-timeout=10m",
                        "other-nodepools init -input=false -no-color -lock-timeout=10m",
                        "other-nodepools apply -input=false -no-color -auto-approve -lock-timeout=10m");
        assertThat(console.stdout())
                .contains("=== demo-karpenter: terraform apply (exit 0)")
                .contains("demo   ok      applied 4: demo-iam, demo-interruption, demo-karpenter, demo-nodepools")
                .contains("All 2 clusters: apply done.");
    }

    @Test
    void theFirstFailingStackStopsItsClusterAndTheOtherClusterGoesOn() throws Exception {
        int status = run("""
                if [ "$1" = apply ] && [ "$STACK" = demo-interruption ]; then
                  echo "Error: creating SQS Queue (demo): AccessDenied" ; exit 1
                fi
                if [ "$1" = apply ]; then echo "Apply complete! Resources: 3 added, 0 changed, 0 destroyed."; fi
                """, "apply");

        assertThat(status).isEqualTo(StacksCommand.EXIT_FAILED);
        assertThat(calls())
                .filteredOn(call -> call.contains(" apply "))
                .extracting(call -> call.split(" ")[0])
                .containsExactlyInAnyOrder(
                        "demo-iam",
                        "demo-interruption",
                        "other-iam",
                        "other-interruption",
                        "other-karpenter",
                        "other-nodepools");
        assertThat(console.stdout())
                .contains("demo   FAILED  applied 1: demo-iam | failed 1: demo-interruption | skipped 2: "
                        + "demo-karpenter, demo-nodepools")
                .contains("      demo-interruption: Error: creating SQS Queue (demo): AccessDenied")
                .contains("other  ok      applied 4: other-iam, other-interruption, other-karpenter, other-nodepools")
                .contains("1 of 2 clusters failed; the others' results stand.");
    }

    @Test
    void destroysInReverseOrderAndLeavesStacksWithoutStateAlone() throws Exception {
        int status = run("""
                if [ "$1" = state ] && [ "$STACK" != demo-karpenter ] && [ "$STACK" != demo-nodepools ]; then
                  echo "aws_iam_role.controller"
                fi
                """, "destroy", "--cluster", "demo", "--lock-timeout", "90s");

        assertThat(status).isZero();
        assertThat(calls())
                .containsExactly(
                        "demo-nodepools init -input=false -no-color -lock-timeout=90s",
                        "demo-nodepools state list",
                        "demo-karpenter init -input=false -no-color -lock-timeout=90s",
                        "demo-karpenter state list",
                        "demo-interruption init -input=false -no-color -lock-timeout=90s",
                        "demo-interruption state list",
                        "demo-interruption destroy -input=false -no-color -auto-approve -lock-timeout=90s",
                        "demo-iam init -input=false -no-color -lock-timeout=90s",
                        "demo-iam state list",
                        "demo-iam destroy -input=false -no-color -auto-approve -lock-timeout=90s");
        assertThat(console.stdout())
                .contains("destroyed 2: demo-interruption, demo-iam | nothing to destroy 2: demo-nodepools, "
                        + "demo-karpenter")
                .doesNotContain("other");
    }

    @Test
    void theConcernFilterTakesTheAwsHalfOnly() throws Exception {
        assertThat(run("echo ok", "apply", "--concern", "iam,interruption", "--cluster", "other"))
                .isZero();

        assertThat(calls())
                .extracting(call -> call.split(" ", 3)[0] + " " + call.split(" ", 3)[1])
                .containsExactly(
                        "other-iam init", "other-iam apply", "other-interruption init", "other-interruption apply");
    }

    /** A destroy never pulls a stack from under its dependents: they are named, and nothing runs. */
    @Test
    void aDestroyOfSomeConcernsTakesTheirDependentsToo() throws Exception {
        assertThat(run("echo ok", "destroy", "--concern", "iam", "--cluster", "demo"))
                .isEqualTo(64);
        assertThat(calls()).isEmpty();
        assertThat(console.stderr())
                .contains("error: destroy --concern iam would pull stacks from under the karpenter, nodepools stacks,"
                        + " which depend on them: add --concern karpenter,nodepools");

        assertThat(run("echo ok", "destroy", "--concern", "nodepools,karpenter", "--cluster", "demo"))
                .isZero();
        assertThat(calls()).first().asString().startsWith("demo-nodepools init");

        // dependents whose local state is missing or empty hold nothing to pull the stacks from under
        Files.delete(calls);
        for (String stack : List.of("demo-karpenter", "demo-nodepools")) {
            Path directory = outdir.resolve("stacks").resolve(stack);
            Files.writeString(
                    directory.resolve("cdk.tf.json"),
                    "{\"terraform\": {\"backend\": {\"local\": {\"path\": \"../../" + stack + ".tfstate\"}}}}");
        }
        Files.writeString(outdir.resolve("demo-nodepools.tfstate"), "{\"version\": 4, \"resources\": []}");
        assertThat(run("echo ok", "destroy", "--concern", "iam,interruption", "--cluster", "demo"))
                .isZero();
        assertThat(calls()).first().asString().startsWith("demo-interruption init");
        Files.writeString(
                outdir.resolve("demo-nodepools.tfstate"),
                "{\"version\": 4, \"resources\": [{\"type\": \"helm_release\"}]}");
        assertThat(run("echo ok", "destroy", "--concern", "iam,interruption", "--cluster", "demo"))
                .isEqualTo(64);
        assertThat(console.stderr()).contains("add --concern nodepools");

        // a live stack two steps down is found through an empty one between (nodepools on karpenter on iam)
        String chain = MANIFEST.replace(
                "\"dependencies\": [\"demo-karpenter\", \"demo-iam\"]", "\"dependencies\": [\"demo-karpenter\"]");
        assertThat(chain).isNotEqualTo(MANIFEST);
        Files.writeString(outdir.resolve("manifest.json"), chain);
        assertThat(run("echo ok", "destroy", "--concern", "iam,interruption", "--cluster", "demo"))
                .isEqualTo(64);
        assertThat(console.stderr()).contains("add --concern nodepools");
    }

    /** other-iam's apply creates a file demo-iam's apply waits for: only clusters run side by side finish. */
    @Test
    void clustersRunSideBySideUpToTheBound() throws Exception {
        String meet = """
                if [ "$1" = apply ] && [ "$STACK" = other-iam ]; then touch "$MEET"; fi
                if [ "$1" = apply ] && [ "$STACK" = demo-iam ]; then
                  for i in $(seq 1 100); do [ -f "$MEET" ] && exit 0; sleep 0.1; done
                  echo "Error: other-iam never ran beside demo-iam"; exit 1
                fi
                """;
        assertThat(run(meet, "apply", "--concern", "iam", "--parallel", "2")).isZero();
    }

    @Test
    void oneClusterAtATimeWithParallelOne() throws Exception {
        run("echo ok", "apply", "--parallel", "1", "--concern", "iam,interruption");

        assertThat(calls())
                .extracting(call -> call.split(" ")[0])
                .containsExactly(
                        "demo-iam",
                        "demo-iam",
                        "demo-interruption",
                        "demo-interruption",
                        "other-iam",
                        "other-iam",
                        "other-interruption",
                        "other-interruption");
    }

    @Test
    void plansAreReadOnlyAndStacksWaitForProducersNeverApplied() throws Exception {
        int status = run("""
                if [ "$1" != plan ]; then exit 0; fi
                if [ "$STACK" = demo-karpenter ]; then echo 'Error: Unable to find remote state' >&2; exit 1; fi
                if [ "$STACK" = other-iam ]; then echo "No changes. Your infrastructure matches the configuration."; exit 0; fi
                echo "Plan: 1 to add, 0 to change, 0 to destroy."; exit 2
                """, "plan", "--report", temp.resolve("plans").toString());

        assertThat(status).as("a producer never applied is not a failure").isZero();
        assertThat(calls())
                .filteredOn(call -> call.contains(" plan"))
                .contains("demo-iam plan -input=false -no-color -lock=false -detailed-exitcode")
                .extracting(call -> call.split(" ")[0])
                .doesNotContain("demo-nodepools");
        assertThat(calls()).filteredOn(call -> call.contains("init")).allMatch(call -> !call.contains("lock"));
        String demo = Files.readString(temp.resolve("plans/demo.md"));
        assertThat(demo)
                .startsWith("## Terraform plans: cluster `demo`")
                .contains("| `demo-iam` | ✏️ changes: Plan: 1 to add, 0 to change, 0 to destroy. |")
                .contains("| `demo-karpenter` | ⏳ waiting: a stack it reads was never applied (first deploy) |")
                .contains("| `demo-nodepools` | ⏳ waiting: waits for demo-karpenter |")
                .contains("<summary>demo-iam</summary>");
        assertThat(Files.readString(temp.resolve("plans/other.md")))
                .contains("| `other-iam` | ✅ no changes |")
                .doesNotContain("demo-");
    }

    @Test
    void detailedExitCodeTellsChangesFromNone() throws Exception {
        assertThat(run("if [ \"$1\" = plan ]; then exit 2; fi", "plan", "--detailed-exitcode", "--cluster", "demo"))
                .isEqualTo(StacksCommand.EXIT_CHANGES);
        assertThat(run("exit 0", "plan", "--detailed-exitcode", "--concern", "iam"))
                .isZero();
        assertThat(run("if [ \"$1\" = plan ]; then exit 2; fi", "plan", "--concern", "iam"))
                .isZero();
    }

    @Test
    void anyOtherPlanErrorFailsTheRunAndTheReportSaysWhy() throws Exception {
        int status = run("""
                if [ "$1" = plan ] && [ "$STACK" = demo-interruption ]; then
                  printf '\\n│ Error: Resource postcondition failed\\n│\\n│ EKS cluster demo runs EKS Auto Mode\\n'
                  exit 1
                fi
                """, "plan", "--report", temp.resolve("plans").toString());

        assertThat(status).isEqualTo(StacksCommand.EXIT_FAILED);
        assertThat(Files.readString(temp.resolve("plans/demo.md")))
                .contains("| `demo-interruption` | ❌ failed: Error: Resource postcondition failed |")
                .contains("| `demo-karpenter` | ⏳ waiting: waits for demo-interruption |")
                .contains("EKS cluster demo runs EKS Auto Mode");
    }

    @Test
    void aHugePlanIsShortenedToFitOneComment() throws Exception {
        int status = run(
                """
                if [ "$1" != plan ]; then exit 0; fi
                for i in $(seq 1 4000); do echo "  + resource line $i of a very large plan ......................"; done
                exit 2
                """,
                "plan",
                "--cluster",
                "demo",
                "--report",
                temp.resolve("plans").toString());

        assertThat(status).isZero();
        String report = Files.readString(temp.resolve("plans/demo.md"));
        assertThat(report.length()).isLessThan(PlanReport.MAX_LENGTH);
        assertThat(report)
                .contains("… (shortened; the job log has the whole plan)")
                .contains("<summary>demo-nodepools</summary>");
    }

    @Test
    void aMirrorIsTheOnlyProviderSourceAndOnePluginCacheServesEveryStack() throws Exception {
        Path mirror = Files.createDirectories(temp.resolve("mirror"));
        run(
                "if [ \"$1\" = init ]; then cat \"$TF_CLI_CONFIG_FILE\" >> \"$CALLS.rc\"; echo \"$TF_PLUGIN_CACHE_DIR\""
                        + " >> \"$CALLS.cache\"; fi",
                "apply",
                "--plugin-mirror",
                mirror.toString(),
                "--concern",
                "iam");

        assertThat(Files.readString(Path.of(calls + ".rc")))
                .contains("filesystem_mirror")
                .contains("path = \"" + mirror + "\"")
                .doesNotContain("direct");
        assertThat(Files.readAllLines(Path.of(calls + ".cache")))
                .hasSize(2)
                .containsOnly(temp.resolve(".terraform-plugin-cache").toString());
    }

    @Test
    void listsTheClustersAsAJsonArray() throws Exception {
        assertThat(run("exit 1", "clusters")).isZero();
        assertThat(console.stdout().strip()).isEqualTo("[\"demo\",\"other\"]");
        assertThat(calls()).as("no terraform").isEmpty();
    }

    @Test
    void badUsageIsOneLineAndStatus64() throws Exception {
        assertThat(run("exit 0", "apply", "--cluster", "nope")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr().strip())
                .isEqualTo("error: no cluster nope in " + outdir.resolve("manifest.json") + " (it has: demo, other)");
        assertThat(run("exit 0", "apply", "--concern", "controller")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains("--concern controller names no stack (concerns: iam, interruption,");
        assertThat(run("exit 0", "deploy")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(run("exit 0", "apply", "--report", "x")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(run("exit 0", "apply", "--parallel", "0")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(run("exit 0", "apply", "--lock-timeout", "ten")).isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(calls()).isEmpty();
    }

    @Test
    void aMissingManifestSaysToSynthesizeFirst() throws Exception {
        assertThat(run("exit 0", "plan", "--outdir", temp.resolve("none").toString()))
                .isEqualTo(StacksCommand.EXIT_USAGE);
        assertThat(console.stderr()).contains("manifest.json does not exist: synthesize first");
    }

    /** Terraform alone: nothing in the package reaches cdktf or jsii, so a run starts no Node.js process. */
    @Test
    void thePackageUsesNeitherCdktfNorJsii() throws IOException {
        try (var sources = Files.list(Path.of("src/main/java/dev/platform/karpenter/terraform"))) {
            for (Path source : sources.toList()) {
                assertThat(Files.readAllLines(source))
                        .as(source.toString())
                        .filteredOn(line -> line.startsWith("import "))
                        .noneMatch(line -> line.contains("com.hashicorp")
                                || line.contains("software.amazon.jsii")
                                || line.contains("software.constructs")
                                || line.contains("dev.platform.karpenter.")
                                        && !line.contains("dev.platform.karpenter.terraform."));
            }
        }
    }

    private Path calls;

    /**
     * Runs the command against the stand-in terraform {@code body} (POSIX sh; $STACK is the stack directory's name).
     * sh and no subprocess of its own: a run calls it dozens of times, and bash plus basename cost several times more.
     */
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
        env.put("MEET", temp.resolve("meet").toString());
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--outdir")) {
            all.addAll(List.of("--outdir", outdir.toString()));
        }
        console.reset();
        return StacksCommand.run(temp, all.toArray(String[]::new), env, console.out(), console.err());
    }

    private List<String> calls() throws IOException {
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }
}
