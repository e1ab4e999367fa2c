package dev.platform.karpenter.terraform;

import dev.platform.karpenter.terraform.StackRunner.Action;
import dev.platform.karpenter.terraform.StackRunner.ClusterResult;
import dev.platform.karpenter.terraform.StackRunner.StackResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The closing lines of a run: per cluster, which stacks had which outcome (applied, failed, skipped...), each failed
 * stack with its first error; then the totals.
 */
final class Summary {
    private Summary() {}

    static String text(Action action, List<ClusterResult> results, Duration took) {
        StringBuilder text = new StringBuilder("\n=== Summary: " + action.word() + ", " + results.size()
                + (results.size() == 1 ? " cluster" : " clusters") + " in " + StackRunner.seconds(took) + "\n");
        int width = results.stream().mapToInt(r -> r.cluster().length()).max().orElse(0);
        for (ClusterResult cluster : results) {
            List<String> parts = new ArrayList<>();
            for (Outcome outcome : Outcome.values()) {
                List<String> stacks = cluster.stacksWith(outcome);
                if (!stacks.isEmpty()) {
                    parts.add(outcome.label() + " " + stacks.size() + ": " + String.join(", ", stacks));
                }
            }
            text.append(String.format(
                    "  %-" + width + "s  %-6s  %s%n",
                    cluster.cluster(),
                    cluster.failed() ? "FAILED" : cluster.stopped() ? "STOPPED" : "ok",
                    parts.isEmpty() ? "no stacks" : String.join(" | ", parts)));
            for (StackResult stack : cluster.stacks()) {
                if (stack.outcome() == Outcome.FAILED || stack.outcome().needsNewPlan()) {
                    text.append("      ")
                            .append(stack.stack())
                            .append(": ")
                            .append(stack.detail())
                            .append('\n');
                }
            }
        }
        long failed = results.stream().filter(ClusterResult::failed).count();
        long stopped = results.stream().filter(r -> !r.failed() && r.stopped()).count();
        if (failed == 0 && stopped == 0) {
            text.append("All " + results.size() + " clusters: " + action.word() + " done.\n");
        } else {
            if (failed > 0) {
                text.append(failed + " of " + results.size() + " clusters failed; the others' results stand.\n");
            }
            if (stopped > 0) {
                text.append(stopped + " of " + results.size() + " clusters stopped before a plan nobody approved:"
                        + " re-run the plan, review and approve it, then apply it.\n");
            }
        }
        return text.toString();
    }
}
