package dev.platform.karpenter.terraform;

import dev.platform.karpenter.terraform.SynthesizedStacks.Cluster;
import dev.platform.karpenter.terraform.SynthesizedStacks.Stack;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plans, applies or destroys the stacks of several clusters with Terraform alone: clusters side by side, up to a
 * bound; the stacks of one cluster one after the other, in dependency order (destroy: the reverse). A stack that
 * fails stops its cluster (apply and destroy: the stacks after it are skipped, so nothing is built on, or pulled
 * from under, a broken stack); the other clusters go on, and their results stand.
 *
 * <p>Each stack gets one {@code terraform init} (one at a time: they share the plugin cache), then its command. Plans are read-only ({@code -lock=false}); applies
 * and destroys wait up to the lock timeout for a state lock held elsewhere. Each command's output is printed whole
 * when it ends, under a header naming the stack, so parallel clusters never interleave their lines.
 */
public final class StackRunner {
    private static final Pattern REMOTE_STATE_MISSING = Pattern.compile("Unable to find remote state");

    /** The three things the runner does to a stack. */
    public enum Action {
        PLAN,
        APPLY,
        DESTROY;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One stack's outcome; {@code plan} is the plan's output (plan only, else empty). */
    public record StackResult(String stack, Outcome outcome, String detail, String plan, Duration took) {}

    /** One cluster's stacks, in the order they were taken. */
    public record ClusterResult(String cluster, List<StackResult> stacks) {
        public boolean failed() {
            return stacks.stream().anyMatch(s -> s.outcome() == Outcome.FAILED);
        }

        public boolean hasChanges() {
            return stacks.stream().anyMatch(s -> s.outcome() == Outcome.CHANGES);
        }

        public List<String> stacksWith(Outcome outcome) {
            return stacks.stream()
                    .filter(s -> s.outcome() == outcome)
                    .map(StackResult::stack)
                    .toList();
        }
    }

    private final TerraformCli terraform;
    private final Action action;
    private final String lockTimeout;
    private final PrintStream out;
    private final PrintStream progress;
    // Terraform's plugin cache is not safe for concurrent use: an init of a stack without a dependency lock file
    // installs from the mirror into the cache again, even where the cache holds the provider, so two inits at once
    // can leave one stack without its provider (hashicorp/terraform#31964). Inits run one at a time; plans and
    // applies stay parallel.
    private final Object pluginCache = new Object();

    StackRunner(TerraformCli terraform, Action action, String lockTimeout, PrintStream out, PrintStream progress) {
        this.terraform = terraform;
        this.action = action;
        this.lockTimeout = lockTimeout;
        this.out = out;
        this.progress = progress;
    }

    /**
     * Runs {@code action} on the stacks of {@code clusters} whose concern is in {@code concerns} (every stack when
     * empty), at most {@code parallel} clusters at once; returns one result per cluster, in the order given.
     */
    List<ClusterResult> run(List<Cluster> clusters, Set<String> concerns, int parallel) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, clusters.size())));
        try {
            List<Future<ClusterResult>> futures = new ArrayList<>();
            for (Cluster cluster : clusters) {
                List<Stack> stacks = new ArrayList<>(cluster.stacks().stream()
                        .filter(s -> concerns.isEmpty() || concerns.contains(SynthesizedStacks.concern(s)))
                        .toList());
                if (action == Action.DESTROY) {
                    java.util.Collections.reverse(stacks);
                }
                futures.add(pool.submit(() -> runCluster(cluster.name(), stacks)));
            }
            List<ClusterResult> results = new ArrayList<>();
            for (Future<ClusterResult> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a cluster's run failed unexpectedly", e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdown(); // never interrupts a cluster's Terraform: an interrupt mid-apply loses state
        }
    }

    private ClusterResult runCluster(String cluster, List<Stack> stacks) throws InterruptedException {
        List<StackResult> results = new ArrayList<>();
        Map<String, Outcome> outcomes = new HashMap<>();
        boolean stopped = false;
        for (Stack stack : stacks) {
            StackResult result;
            if (stopped) {
                result = new StackResult(stack.name(), Outcome.SKIPPED, "an earlier stack failed", "", Duration.ZERO);
            } else {
                try {
                    result = runStack(stack, outcomes);
                } catch (RuntimeException e) {
                    // One stack's unexpected failure (a full disk, unreadable output) is that stack's, not the run's:
                    // the other clusters go on, and the summary names it.
                    result = new StackResult(
                            stack.name(),
                            Outcome.FAILED,
                            "unexpected error: "
                                    + (e.getMessage() == null
                                            ? e.toString()
                                            : e.getClass().getSimpleName() + ": " + e.getMessage()),
                            "",
                            Duration.ZERO);
                }
                // A failed plan stops nothing: the stacks that read from it wait, the others are still planned.
                stopped = result.outcome() == Outcome.FAILED && action != Action.PLAN;
            }
            outcomes.put(stack.name(), result.outcome());
            results.add(result);
        }
        return new ClusterResult(cluster, List.copyOf(results));
    }

    private StackResult runStack(Stack stack, Map<String, Outcome> outcomes) throws InterruptedException {
        long start = System.nanoTime();
        if (action == Action.PLAN) {
            // A producer skipped by --concern counts as planned: its state may well exist.
            List<String> waitingFor = stack.dependencies().stream()
                    .filter(d -> outcomes.containsKey(d) && !outcomes.get(d).planned())
                    .toList();
            if (!waitingFor.isEmpty()) {
                return new StackResult(
                        stack.name(), Outcome.WAITING, "waits for " + String.join(", ", waitingFor), "", Duration.ZERO);
            }
        }
        if (!SynthesizedStacks.isStackDirectory(stack.directory())) {
            return finished(stack, start, Outcome.FAILED, "no cdk.tf.json in " + stack.directory(), "");
        }
        progress.println("stacks: " + stack.name() + ": " + action.word());
        TerraformCli.Result init = init(stack);
        if (!init.succeeded()) {
            print(stack, "init", init);
            return finished(stack, start, Outcome.FAILED, "init: " + firstError(init.output()), "");
        }
        return switch (action) {
            case PLAN -> plan(stack, start);
            case APPLY -> apply(stack, start);
            case DESTROY -> destroy(stack, start);
        };
    }

    private StackResult plan(Stack stack, long start) throws InterruptedException {
        TerraformCli.Result plan =
                command(stack, "plan", "-input=false", "-no-color", "-lock=false", "-detailed-exitcode");
        return switch (plan.exitCode()) {
            case 0 -> finished(stack, start, Outcome.NO_CHANGES, "no changes", plan.output());
            case 2 -> finished(stack, start, Outcome.CHANGES, planLine(plan.output()), plan.output());
            default ->
                REMOTE_STATE_MISSING.matcher(plan.output()).find()
                        ? finished(
                                stack, start, Outcome.WAITING, "a stack it reads was never applied (first deploy)", "")
                        : finished(stack, start, Outcome.FAILED, firstError(plan.output()), plan.output());
        };
    }

    private StackResult apply(Stack stack, long start) throws InterruptedException {
        TerraformCli.Result apply =
                command(stack, "apply", "-input=false", "-no-color", "-auto-approve", "-lock-timeout=" + lockTimeout);
        return apply.succeeded()
                ? finished(stack, start, Outcome.APPLIED, applyLine(apply.output()), "")
                : finished(stack, start, Outcome.FAILED, firstError(apply.output()), "");
    }

    private StackResult destroy(Stack stack, long start) throws InterruptedException {
        // A stack that was never applied (or is gone already) has no state: nothing to destroy, and its data
        // sources, which would read producers' states, are better left unread.
        TerraformCli.Result state = terraform.run(stack.directory(), List.of("state", "list"));
        if (!state.succeeded()) {
            print(stack, "state list", state);
            return finished(stack, start, Outcome.FAILED, "state list: " + firstError(state.output()), "");
        }
        if (state.output().isBlank()) {
            return finished(stack, start, Outcome.NO_STATE, "no resources in its state", "");
        }
        TerraformCli.Result destroy =
                command(stack, "destroy", "-input=false", "-no-color", "-auto-approve", "-lock-timeout=" + lockTimeout);
        return destroy.succeeded()
                ? finished(stack, start, Outcome.DESTROYED, destroyLine(destroy.output()), "")
                : finished(stack, start, Outcome.FAILED, firstError(destroy.output()), "");
    }

    private TerraformCli.Result init(Stack stack) throws InterruptedException {
        List<String> args = action == Action.PLAN
                ? List.of("init", "-input=false", "-no-color")
                : List.of("init", "-input=false", "-no-color", "-lock-timeout=" + lockTimeout);
        synchronized (pluginCache) {
            return terraform.run(stack.directory(), args);
        }
    }

    private TerraformCli.Result command(Stack stack, String... args) throws InterruptedException {
        TerraformCli.Result result = terraform.run(stack.directory(), List.of(args));
        print(stack, args[0], result);
        return result;
    }

    private void print(Stack stack, String command, TerraformCli.Result result) {
        synchronized (out) {
            out.println("=== " + stack.name() + ": terraform " + command + " (exit " + result.exitCode() + ")");
            out.print(result.output());
            if (!result.output().endsWith("\n")) {
                out.println();
            }
            out.flush();
        }
    }

    private StackResult finished(Stack stack, long start, Outcome outcome, String detail, String plan) {
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        progress.println("stacks: " + stack.name() + ": " + outcome.label() + " (" + seconds(took) + ")");
        return new StackResult(stack.name(), outcome, detail, plan, took);
    }

    static String seconds(Duration duration) {
        return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    private static final Pattern ERROR = Pattern.compile("(?m)^[│\\s]*Error: (.+)$");
    private static final Pattern PLAN_LINE = Pattern.compile("(?m)^Plan: .+$|^Changes to Outputs:$");
    private static final Pattern APPLY_LINE = Pattern.compile("(?m)^Apply complete! (.+)$");
    private static final Pattern DESTROY_LINE = Pattern.compile("(?m)^Destroy complete! (.+)$");

    /** The first "Error: ..." line of Terraform's output, else its last non-empty line. */
    static String firstError(String output) {
        Matcher m = ERROR.matcher(output);
        if (m.find()) {
            return "Error: " + m.group(1).strip();
        }
        String[] lines = output.strip().split("\\R");
        return lines.length == 0 || lines[lines.length - 1].isBlank() ? "no output" : lines[lines.length - 1].strip();
    }

    private static String planLine(String output) {
        Matcher m = PLAN_LINE.matcher(output);
        return m.find() ? m.group().strip() : "changes";
    }

    private static String applyLine(String output) {
        Matcher m = APPLY_LINE.matcher(output);
        return m.find() ? m.group(1).strip() : "applied";
    }

    private static String destroyLine(String output) {
        Matcher m = DESTROY_LINE.matcher(output);
        return m.find() ? m.group(1).strip() : "destroyed";
    }
}
