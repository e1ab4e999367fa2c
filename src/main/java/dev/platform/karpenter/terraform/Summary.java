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
                    cluster.failed() ? "FAILED" : "ok",
                    parts.isEmpty() ? "no stacks" : String.join(" | ", parts)));
            for (StackResult stack : cluster.stacks()) {
                if (stack.outcome() == Outcome.FAILED) {
                    text.append("      ")
                            .append(stack.stack())
                            .append(": ")
                            .append(stack.detail())
                            .append('\n');
                }
            }
        }
        long failed = results.stream().filter(ClusterResult::failed).count();
        text.append(
                failed == 0
                        ? "All " + results.size() + " clusters: " + action.word() + " done.\n"
                        : failed + " of " + results.size() + " clusters failed; the others' results stand.\n");
        return text.toString();
    }
}
