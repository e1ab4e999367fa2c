package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.platform.karpenter.terraform.StackRunner.ClusterResult;
import dev.platform.karpenter.terraform.StackRunner.StackResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One cluster's plans as Markdown, for a pull-request comment or a drift issue: a table of the stacks, then each
 * plan folded. Kept below GitHub's 65,536 characters of a comment or issue body: long plans are shortened evenly
 * (the job log has them whole).
 */
final class PlanReport {
    /**
     * GitHub's limit is 65,536; room for the marker the workflow puts first and the pools' preview bin/plan-stacks
     * appends (at most 10,000 characters, preview.PreviewMarkdown).
     */
    static final int MAX_LENGTH = 55_000;

    private static final Map<Outcome, String> ICONS = Map.of(
            Outcome.NO_CHANGES, "✅",
            Outcome.CHANGES, "✏️",
            Outcome.WAITING, "⏳",
            Outcome.FAILED, "❌",
            Outcome.SKIPPED, "⏭️");

    private static final ObjectMapper JSON = new ObjectMapper();

    private PlanReport() {}

    static String markdown(ClusterResult cluster) {
        // Saved plans (plan --out): each file's SHA-256, which the apply checks, beside its plan.
        boolean saved = cluster.stacks().stream().anyMatch(s -> !s.planSha256().isEmpty());
        List<String> head = new ArrayList<>(List.of(
                "## Terraform plans: cluster `" + cluster.cluster() + "`",
                "",
                saved ? "| stack | plan | plan file SHA-256 |" : "| stack | plan |",
                saved ? "|---|---|---|" : "|---|---|"));
        for (StackResult stack : cluster.stacks()) {
            String detail = stack.outcome() == Outcome.NO_CHANGES
                    ? ""
                    : ": " + firstLine(stack.detail()).replace("|", "\\|");
            head.add("| `" + stack.stack() + "` | " + ICONS.getOrDefault(stack.outcome(), "") + " "
                    + stack.outcome().label() + detail + " |"
                    + (saved ? (stack.planSha256().isEmpty() ? " |" : " `" + stack.planSha256() + "` |") : ""));
        }
        head.add("");
        if (cluster.stacks().stream().anyMatch(s -> s.outcome() == Outcome.WAITING)) {
            head.add("⏳ stacks plan once the stacks they read from are deployed (on merge, in dependency order).");
            head.add("");
        }
        String top = String.join("\n", head);
        List<StackResult> shown =
                cluster.stacks().stream().filter(s -> !s.plan().isBlank()).toList();
        int fixed = top.length()
                + shown.stream().mapToInt(s -> section(s.stack(), "").length()).sum();
        int budget = Math.max(0, (MAX_LENGTH - fixed) / Math.max(1, shown.size()) - 60);
        StringBuilder report = new StringBuilder(top);
        for (StackResult stack : shown) {
            String text = stack.plan().strip().replace("```", "ʼʼʼ");
            report.append('\n')
                    .append(section(
                            stack.stack(),
                            text.length() > budget
                                    ? text.substring(0, budget) + "\n… (shortened; the job log has the whole plan)"
                                    : text));
        }
        return report.toString();
    }

    /**
     * The cluster's outcomes for scripts: {"cluster": NAME, "stacks": [{"stack", "concern", "outcome" (the label),
     * "detail" (its first line), "sha256" (saved plans only)}]}.
     */
    static String json(ClusterResult cluster) {
        ObjectNode root = JSON.createObjectNode();
        root.put("cluster", cluster.cluster());
        ArrayNode stacks = root.putArray("stacks");
        for (StackResult stack : cluster.stacks()) {
            ObjectNode node = stacks.addObject();
            node.put("stack", stack.stack());
            node.put("concern", stack.stack().substring(cluster.cluster().length() + 1));
            node.put("outcome", stack.outcome().label());
            node.put("detail", firstLine(stack.detail()));
            if (!stack.planSha256().isEmpty()) {
                node.put("sha256", stack.planSha256());
            }
        }
        return root.toPrettyString() + "\n";
    }

    private static String section(String stack, String text) {
        return String.join("\n", "<details><summary>" + stack + "</summary>", "", "```", text, "```", "</details>", "");
    }

    private static String firstLine(String text) {
        String line = text.strip().split("\\R", 2)[0];
        return line.length() <= 200 ? line : line.substring(0, 199) + "…";
    }
}
