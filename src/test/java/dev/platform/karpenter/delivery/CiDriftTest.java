package dev.platform.karpenter.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.platform.karpenter.testing.KernelOnlyThroughSynthesized;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * libexec/ci-drift, the nightly drift's fleet page, without GitHub: its inputs are the clusters' plan outcomes
 * (bin/stacks plan --report writes them as JSON) and what a stand-in gh answers for the open drift issues; its
 * outputs are the run's summary and the gh api calls it makes.
 */
@KernelOnlyThroughSynthesized
class CiDriftTest {
    private static final Path SCRIPT = Path.of("libexec/ci-drift").toAbsolutePath();
    private static final String MARKER = "<!-- karpenter-cdktf-drift fleet -->";

    @TempDir
    Path temp;

    private Path results;
    private Path clusters;
    private Path summary;
    private Path calls;

    @BeforeEach
    void dirs() throws IOException {
        results = Files.createDirectories(temp.resolve("results"));
        clusters = temp.resolve("clusters.json");
        summary = temp.resolve("summary.md");
        calls = temp.resolve("gh-calls");
    }

    private void result(String cluster, String... stacks) throws IOException {
        List<String> entries = new ArrayList<>();
        for (String stack : stacks) {
            String[] parts = stack.split(":", 3); // concern:outcome:detail
            entries.add("{\"stack\": \"%s-%s\", \"concern\": \"%s\", \"outcome\": \"%s\", \"detail\": \"%s\"}"
                    .formatted(cluster, parts[0], parts[0], parts[1], parts[2]));
        }
        Files.writeString(
                results.resolve(cluster + ".json"),
                "{\"cluster\": \"" + cluster + "\", \"stacks\": [" + String.join(", ", entries) + "]}");
    }

    @Test
    void oneTableOfTheFleetClusterByStack() throws Exception {
        Files.writeString(clusters, "[\"east\", \"west\", \"north\"]");
        result(
                "east",
                "iam:no changes:no changes",
                "interruption:changes:Plan: 1 to add, 2 to change, 0 to destroy.",
                "karpenter:failed:Error: Kubernetes cluster unreachable | 401",
                "nodepools:waiting:waits for east-karpenter");
        result(
                "west",
                "iam:no changes:no changes",
                "interruption:no changes:no changes",
                "karpenter:changes:Changes to Outputs:",
                "nodepools:changes:Plan: 0 to add, 1 to change, 0 to destroy.");
        // north's job failed before it planned: no result

        Run run = drift(false, "[]");

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(Files.readAllLines(summary))
                .containsSubsequence(
                        "## Drift: 3 clusters, 2 drifted, 2 with errors",
                        "| cluster | iam | interruption | karpenter | nodepools |",
                        "|---|---|---|---|---|",
                        "| `east` | ✅ in sync | ✏️ drifted: 3 changes | ❌ error: Error: Kubernetes cluster unreachable"
                                + " \\| 401 | ⏳ not deployed |",
                        "| `west` | ✅ in sync | ✅ in sync | ✏️ drifted: outputs only | ✏️ drifted: 1 change |",
                        "| `north` | ❌ error: no result | ❌ error: no result | ❌ error: no result | ❌ error: no result |",
                        "\"no result\": the cluster's drift job failed before it planned (see its log).");
        assertThat(calls).as("no issue without --issue").doesNotExist();
    }

    @Test
    void driftOpensOneIssueOrUpdatesTheOpenOne() throws Exception {
        Files.writeString(clusters, "[\"east\"]");
        result("east", "iam:changes:Plan: 0 to add, 1 to change, 0 to destroy.");

        Run opened = drift(true, "[{\"number\": 3, \"body\": \"someone else's drift issue\"}]");
        assertThat(opened.exit()).as(opened.output()).isZero();
        assertThat(calls()).hasSize(2);
        assertThat(calls().get(0))
                .isEqualTo("api --paginate repos/acme/fleet/issues?state=open&labels=drift&per_page=100");
        assertThat(calls().get(1))
                .startsWith("api repos/acme/fleet/issues -f title=Drift: the fleet differs from main -F body=@")
                .endsWith(" -f labels[]=drift");
        assertThat(body())
                .startsWith(MARKER + "\nWhat is deployed differs from main on 1 of 1 clusters.")
                .contains("| `east` | ✏️ drifted: 1 change |");

        Files.delete(calls);
        Run updated = drift(true, "[{\"number\": 7, \"body\": \"" + MARKER + "\\nold table\"}]");
        assertThat(updated.exit()).as(updated.output()).isZero();
        assertThat(calls().get(1)).startsWith("api -X PATCH repos/acme/fleet/issues/7 -F body=@");
        assertThat(calls()).hasSize(2);
    }

    @Test
    void theIssueIsClosedOnceEverythingIsInSyncAndLeftAloneWhileAPlanFails() throws Exception {
        Files.writeString(clusters, "[\"east\", \"west\"]");
        result("east", "iam:no changes:no changes");
        result("west", "iam:failed:Error: AccessDenied");
        String open = "[{\"number\": 7, \"body\": \"" + MARKER + "\\nold table\"}]";

        Run failing = drift(true, open);
        assertThat(failing.exit()).as(failing.output()).isZero();
        assertThat(calls())
                .as("a failed plan proves no sync: the issue stays as it is")
                .hasSize(1);

        Files.delete(calls);
        result("west", "iam:no changes:no changes");
        Run inSync = drift(true, open);
        assertThat(inSync.exit()).as(inSync.output()).isZero();
        assertThat(calls())
                .containsExactly(
                        "api --paginate repos/acme/fleet/issues?state=open&labels=drift&per_page=100",
                        "api repos/acme/fleet/issues/7/comments -f body=Every stack of every cluster is in sync with"
                                + " main again ([run](https://github.example/acme/fleet/actions/runs/42)).",
                        "api -X PATCH repos/acme/fleet/issues/7 -f state=closed -f state_reason=completed");

        // the per-cluster issues of the workflow before the fleet table are closed, pointing at the fleet's
        Files.delete(calls);
        Run migrated = drift(
                true,
                "[{\"number\": 4, \"body\": \"<!-- karpenter-cdktf-drift east -->\\nDrift\"},"
                        + " {\"number\": 5, \"body\": \"<!-- karpenter-cdktf-plans east.md -->\"},"
                        + " {\"number\": 6, \"pull_request\": {}, \"body\": \"<!-- karpenter-cdktf-drift west -->\"}]");
        assertThat(migrated.exit()).as(migrated.output()).isZero();
        assertThat(calls())
                .containsExactly(
                        "api --paginate repos/acme/fleet/issues?state=open&labels=drift&per_page=100",
                        "api repos/acme/fleet/issues/4/comments -f body=Replaced by one issue for the whole fleet, kept"
                                + " by the nightly drift workflow.",
                        "api -X PATCH repos/acme/fleet/issues/4 -f state=closed -f state_reason=not_planned");

        Files.delete(calls);
        Run nothingOpen = drift(true, "[]");
        assertThat(nothingOpen.exit()).isZero();
        assertThat(calls()).hasSize(1);
    }

    private record Run(int exit, String output) {}

    /**
     * Runs the script with a stand-in gh on PATH: it records its arguments, copies a body file it is given, and
     * answers the list of open drift issues with {@code openIssues}.
     */
    private Run drift(boolean issue, String openIssues) throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path gh = bin.resolve("gh");
        Files.writeString(gh, """
                #!/usr/bin/env bash
                echo "$*" >> "$CALLS"
                for a in "$@"; do case "$a" in body=@*) cp "${a#body=@}" "$CALLS.body";; esac; done
                if [ "$2" = --paginate ]; then cat "$CALLS.open"; fi
                """);
        Files.setPosixFilePermissions(gh, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(Path.of(calls + ".open"), openIssues);
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        if (issue) {
            command.add("--issue");
        }
        command.addAll(List.of(results.toString(), clusters.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        env.put("CALLS", calls.toString());
        env.put("GITHUB_STEP_SUMMARY", summary.toString());
        env.put("GITHUB_REPOSITORY", "acme/fleet");
        env.put("RUN_URL", "https://github.example/acme/fleet/actions/runs/42");
        Files.deleteIfExists(summary);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Run(process.exitValue(), output);
    }

    private List<String> calls() throws IOException {
        return Files.readAllLines(calls);
    }

    private String body() throws IOException {
        return Files.readString(Path.of(calls + ".body"));
    }
}
