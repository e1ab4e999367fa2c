package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.platform.karpenter.terraform.SynthesizedStacks.Cluster;
import dev.platform.karpenter.terraform.SynthesizedStacks.Stack;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    private static final Pattern STALE_PLAN = Pattern.compile("Saved plan is stale");
    static final String PLAN_FILE_SUFFIX = ".tfplan";
    private static final String LOCK_FILE = ".terraform.lock.hcl";

    /** The three things the runner does to a stack. */
    public enum Action {
        PLAN,
        APPLY,
        DESTROY;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One stack's outcome; {@code plan} is the plan's output (plan only, else empty), {@code planSha256} the SHA-256
     * of the plan file saved (plan --out) or applied (apply --plans), else empty.
     */
    public record StackResult(
            String stack, Outcome outcome, String detail, String plan, Duration took, String planSha256) {
        StackResult(String stack, Outcome outcome, String detail, String plan, Duration took) {
            this(stack, outcome, detail, plan, took, "");
        }

        StackResult withPlanSha256(String sha256) {
            return new StackResult(stack, outcome, detail, plan, took, sha256);
        }
    }

    /** One cluster's stacks, in the order they were taken. */
    public record ClusterResult(String cluster, List<StackResult> stacks) {
        public boolean failed() {
            return stacks.stream().anyMatch(s -> s.outcome() == Outcome.FAILED);
        }

        /** apply --plans stopped at a stack whose plan must be made and approved again. */
        public boolean stopped() {
            return stacks.stream().anyMatch(s -> s.outcome().needsNewPlan());
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
    /** plan: the plan set to save the plans in (plan --out). */
    private Optional<Path> plansOut = Optional.empty();
    /** apply: the saved plans to apply, by cluster (apply --plans); empty: apply plans made on the spot. */
    private Map<String, SavedPlans.ClusterPlans> savedPlans = Map.of();

    StackRunner(TerraformCli terraform, Action action, String lockTimeout, PrintStream out, PrintStream progress) {
        this.terraform = terraform;
        this.action = action;
        this.lockTimeout = lockTimeout;
        this.out = out;
        this.progress = progress;
    }

    /** plan: saves each stack's plan in the plan set {@code root}, with the cluster's manifest. */
    StackRunner savingPlansIn(Path root) {
        this.plansOut = Optional.of(root.toAbsolutePath());
        return this;
    }

    /** apply: applies these saved plans (every selected cluster has one) and nothing else. */
    StackRunner applyingSavedPlans(Map<String, SavedPlans.ClusterPlans> plans) {
        this.savedPlans = Map.copyOf(plans);
        return this;
    }

    private boolean applyingSaved() {
        return action == Action.APPLY && !savedPlans.isEmpty();
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

    /** What one cluster's run knows as it goes: the stacks' outcomes so far, and what a plan set needs. */
    private static final class ClusterRun {
        final String cluster;
        final Map<String, Outcome> outcomes = new HashMap<>();
        /** plan --out: the manifest's entries. */
        final List<SavedPlans.Entry> entries = new ArrayList<>();
        /** apply --plans: the stacks applied in this run with changes, whose outputs may have changed. */
        final Set<String> appliedWithChanges = new LinkedHashSet<>();

        ClusterRun(String cluster) {
            this.cluster = cluster;
        }
    }

    private ClusterResult runCluster(String cluster, List<Stack> stacks) throws InterruptedException {
        List<StackResult> results = new ArrayList<>();
        ClusterRun run = new ClusterRun(cluster);
        boolean stopped = false;
        String stoppedBy = "an earlier stack failed";
        if (applyingSaved()) {
            Optional<String> refused = checkSavedPlans(savedPlans.get(cluster), stacks);
            if (refused.isPresent()) {
                progress.println("stacks: " + cluster + ": " + refused.get());
                results.add(new StackResult(stacks.get(0).name(), Outcome.FAILED, refused.get(), "", Duration.ZERO));
                stopped = true;
                stoppedBy = "the plan set failed its check: nothing applied";
                stacks = stacks.subList(1, stacks.size());
            }
        }
        if (plansOut.isPresent()) {
            SavedPlans.prepare(plansOut.get(), cluster);
        }
        for (Stack stack : stacks) {
            StackResult result;
            if (stopped) {
                result = new StackResult(stack.name(), Outcome.SKIPPED, stoppedBy, "", Duration.ZERO);
            } else {
                try {
                    result = runStack(stack, run);
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
                stopped =
                        (result.outcome() == Outcome.FAILED || result.outcome().needsNewPlan())
                                && action != Action.PLAN;
                if (result.outcome().needsNewPlan()) {
                    stoppedBy = "an earlier stack needs a new plan";
                }
            }
            run.outcomes.put(stack.name(), result.outcome());
            results.add(result);
            if (plansOut.isPresent()
                    && run.entries.stream().noneMatch(e -> e.stack().equals(stack.name()))) {
                run.entries.add(entry(stack, result, Optional.empty(), Map.of()));
            }
        }
        if (plansOut.isPresent()) {
            SavedPlans.write(plansOut.get(), cluster, run.entries);
        }
        return new ClusterResult(cluster, List.copyOf(results));
    }

    private static SavedPlans.Entry entry(
            Stack stack, StackResult result, Optional<String> file, Map<String, String> reads) {
        return new SavedPlans.Entry(
                stack.name(),
                result.outcome(),
                result.detail(),
                file,
                result.planSha256().isEmpty() ? Optional.empty() : Optional.of(result.planSha256()),
                configurationSha256(stack),
                reads);
    }

    /** The SHA-256 of the stack's configuration, empty when it has none. */
    private static String configurationSha256(Stack stack) {
        Path configuration = stack.directory().resolve("cdk.tf.json");
        return Files.isRegularFile(configuration) ? SavedPlans.sha256(configuration) : "";
    }

    /**
     * Before anything of the cluster is applied: every plan file is the one planned (its SHA-256), every stack was
     * planned from the configuration in the output (a plan applies against its stack's working directory), and no
     * stack of the plan set is missing from the output. Empty when all holds, else why not.
     */
    private static Optional<String> checkSavedPlans(SavedPlans.ClusterPlans plans, List<Stack> stacks) {
        Set<String> names = new LinkedHashSet<>();
        stacks.forEach(s -> names.add(s.name()));
        for (SavedPlans.Entry entry : plans.stacks()) {
            if (!names.contains(entry.stack())) {
                return Optional.of("the plan set has stack " + entry.stack() + ", which the synthesized output has not:"
                        + " apply a plan set with the output it was planned from");
            }
            if (entry.file().isPresent()) {
                Path file = plans.file(entry);
                if (!Files.isRegularFile(file)) {
                    return Optional.of("plan file " + file + " is missing: nothing applied");
                }
                String actual = SavedPlans.sha256(file);
                if (!actual.equals(entry.sha256().orElse(""))) {
                    return Optional.of("plan file " + file + " has SHA-256 " + actual + ", not the planned "
                            + entry.sha256().orElse("(none)") + ": the plan set changed after planning; nothing"
                            + " applied");
                }
            }
        }
        for (Stack stack : stacks) {
            Optional<SavedPlans.Entry> entry = plans.entry(stack.name());
            if (entry.isPresent() && !entry.get().configurationSha256().equals(configurationSha256(stack))) {
                return Optional.of(stack.name() + " was planned from another configuration than the synthesized"
                        + " output's (its cdk.tf.json differs): apply a plan set with the output it was planned from");
            }
        }
        return Optional.empty();
    }

    private StackResult runStack(Stack stack, ClusterRun run) throws InterruptedException {
        long start = System.nanoTime();
        if (action == Action.PLAN) {
            // A producer skipped by --concern counts as planned: its state may well exist.
            List<String> waitingFor = stack.dependencies().stream()
                    .filter(d ->
                            run.outcomes.containsKey(d) && !run.outcomes.get(d).planned())
                    .toList();
            if (!waitingFor.isEmpty()) {
                return new StackResult(
                        stack.name(), Outcome.WAITING, "waits for " + String.join(", ", waitingFor), "", Duration.ZERO);
            }
        }
        Optional<SavedPlans.Entry> saved = Optional.empty();
        if (applyingSaved()) {
            saved = savedPlans.get(run.cluster).entry(stack.name());
            if (saved.isEmpty()) {
                // planned with --concern: not part of what was approved
                return new StackResult(stack.name(), Outcome.SKIPPED, "not in the plan set", "", Duration.ZERO);
            }
            Optional<StackResult> unplanned = unplanned(stack, saved.get());
            if (unplanned.isPresent()) {
                return unplanned.get();
            }
        }
        if (!SynthesizedStacks.isStackDirectory(stack.directory())) {
            return finished(stack, start, Outcome.FAILED, "no cdk.tf.json in " + stack.directory(), "");
        }
        progress.println("stacks: " + stack.name() + ": " + action.word() + (saved.isPresent() ? " (saved plan)" : ""));
        if (saved.isPresent()) {
            restoreLockFile(stack, savedPlans.get(run.cluster));
        }
        TerraformCli.Result init = init(stack);
        if (!init.succeeded()) {
            print(stack, "init", init);
            return finished(stack, start, Outcome.FAILED, "init: " + firstError(init.output()), "");
        }
        if (saved.isPresent()) {
            return applySaved(stack, start, run, saved.get());
        }
        return switch (action) {
            case PLAN -> plan(stack, start, run);
            case APPLY -> apply(stack, start);
            case DESTROY -> destroy(stack, start);
        };
    }

    private StackResult plan(Stack stack, long start, ClusterRun run) throws InterruptedException {
        List<String> args =
                new ArrayList<>(List.of("plan", "-input=false", "-no-color", "-lock=false", "-detailed-exitcode"));
        Optional<Path> file =
                plansOut.map(root -> SavedPlans.clusterDir(root, run.cluster).resolve(stack.name() + PLAN_FILE_SUFFIX));
        file.ifPresent(f -> args.add("-out=" + f));
        TerraformCli.Result plan = command(stack, args.toArray(String[]::new));
        StackResult result = switch (plan.exitCode()) {
            case 0 -> finished(stack, start, Outcome.NO_CHANGES, "no changes", plan.output());
            case 2 -> finished(stack, start, Outcome.CHANGES, planLine(plan.output()), plan.output());
            default ->
                REMOTE_STATE_MISSING.matcher(plan.output()).find()
                        ? finished(
                                stack, start, Outcome.WAITING, "a stack it reads was never applied (first deploy)", "")
                        : finished(stack, start, Outcome.FAILED, firstError(plan.output()), plan.output());
        };
        if (file.isEmpty()) {
            return result;
        }
        if (!result.outcome().planned()) {
            deleteIfExists(file.get());
            return result;
        }
        // What the plan read of its producers' outputs: apply --plans re-plans it when an apply changes one.
        Map<String, String> reads = Map.of();
        Set<String> referenced = PlanJson.referencedOutputs(stack.directory());
        if (!referenced.isEmpty()) {
            TerraformCli.Result show = terraform.document(
                    stack.directory(), List.of("show", "-json", file.get().toString()));
            if (!show.succeeded()) {
                print(stack, "show", show);
                deleteIfExists(file.get());
                return finished(stack, start, Outcome.FAILED, "show: " + firstError(show.output()), "");
            }
            reads = PlanJson.reads(PlanJson.parse(show.output()), referenced);
        }
        saveLockFile(stack, file.get().getParent());
        result = result.withPlanSha256(SavedPlans.sha256(file.get()));
        run.entries.add(
                entry(stack, result, Optional.of(file.get().getFileName().toString()), reads));
        return result;
    }

    /** apply --plans: a stack whose plan did not succeed has nothing approved to apply. */
    private static Optional<StackResult> unplanned(Stack stack, SavedPlans.Entry saved) {
        return switch (saved.outcome()) {
            case NO_CHANGES, CHANGES -> Optional.empty();
            case WAITING ->
                Optional.of(new StackResult(
                        stack.name(),
                        Outcome.NOT_PLANNED,
                        "no saved plan: it could not be planned before the stacks it reads were applied ("
                                + saved.detail() + "); re-run the plan now, and approve it",
                        "",
                        Duration.ZERO));
            default ->
                Optional.of(new StackResult(
                        stack.name(),
                        Outcome.FAILED,
                        "its plan " + saved.outcome().label() + ": " + saved.detail(),
                        "",
                        Duration.ZERO));
        };
    }

    /**
     * apply --plans: applies the stack's saved plan, unless an upstream stack's apply in this run changed an output
     * the plan read and the stack's plan is now another; a saved plan without changes is not applied.
     */
    private StackResult applySaved(Stack stack, long start, ClusterRun run, SavedPlans.Entry saved)
            throws InterruptedException {
        SavedPlans.ClusterPlans plans = savedPlans.get(run.cluster);
        Path file = plans.file(saved);
        String note = "";
        List<String> upstreamApplied = stack.dependencies().stream()
                .filter(run.appliedWithChanges::contains)
                .toList();
        if (!upstreamApplied.isEmpty() && !saved.reads().isEmpty()) {
            Path replan = tempPlanFile(stack);
            try {
                TerraformCli.Result plan = command(
                        stack,
                        "plan",
                        "-input=false",
                        "-no-color",
                        "-lock=false",
                        "-detailed-exitcode",
                        "-out=" + replan);
                if (plan.exitCode() != 0 && plan.exitCode() != 2) {
                    return finished(stack, start, Outcome.FAILED, "re-plan: " + firstError(plan.output()), "");
                }
                JsonNode now = show(stack, replan);
                Map<String, String> readsNow = PlanJson.reads(now, PlanJson.referencedOutputs(stack.directory()));
                List<String> changedOutputs = new ArrayList<>();
                Set<String> keys = new java.util.TreeSet<>(saved.reads().keySet());
                keys.addAll(readsNow.keySet());
                for (String key : keys) {
                    if (!java.util.Objects.equals(saved.reads().get(key), readsNow.get(key))) {
                        changedOutputs.add(key);
                    }
                }
                if (!changedOutputs.isEmpty()) {
                    Set<String> differences =
                            PlanJson.differences(PlanJson.changes(show(stack, file)), PlanJson.changes(now));
                    String why = String.join(", ", upstreamApplied) + " changed "
                            + (changedOutputs.size() == 1 ? "an output" : "outputs") + " it reads ("
                            + String.join(", ", changedOutputs) + ")";
                    if (!differences.isEmpty()) {
                        return finished(
                                stack,
                                start,
                                Outcome.CHANGED,
                                "not applied: " + why + ", and its plan now differs from the approved one ("
                                        + String.join(", ", differences) + "; now: "
                                        + (plan.exitCode() == 0 ? "no changes" : planLine(plan.output()))
                                        + "); re-run the plan and approve the new one",
                                "");
                    }
                    note = " (re-planned after " + why + ": the same changes)";
                }
            } finally {
                deleteIfExists(replan);
            }
        }
        if (saved.outcome() == Outcome.NO_CHANGES) {
            return finished(stack, start, Outcome.NO_CHANGES, "no changes to apply" + note, "")
                    .withPlanSha256(saved.sha256().orElse(""));
        }
        TerraformCli.Result apply =
                command(stack, "apply", "-input=false", "-no-color", "-lock-timeout=" + lockTimeout, file.toString());
        if (apply.succeeded()) {
            run.appliedWithChanges.add(stack.name());
            return finished(stack, start, Outcome.APPLIED, applyLine(apply.output()) + note, "")
                    .withPlanSha256(saved.sha256().orElse(""));
        }
        if (STALE_PLAN.matcher(apply.output()).find()) {
            return finished(
                    stack,
                    start,
                    Outcome.STALE,
                    "Terraform refused the saved plan: the stack's state changed after it was planned (another"
                            + " apply ran since); re-run the plan and approve the new one",
                    "");
        }
        return finished(stack, start, Outcome.FAILED, firstError(apply.output()), "");
    }

    private JsonNode show(Stack stack, Path plan) throws InterruptedException {
        TerraformCli.Result show = terraform.document(stack.directory(), List.of("show", "-json", plan.toString()));
        if (!show.succeeded()) {
            print(stack, "show", show);
            throw new IllegalStateException("terraform show -json " + plan + ": " + firstError(show.output()));
        }
        return PlanJson.parse(show.output());
    }

    private static Path tempPlanFile(Stack stack) {
        try {
            Path file = Files.createTempFile("stacks-replan-" + stack.name(), PLAN_FILE_SUFFIX);
            Files.delete(file); // Terraform writes it
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The plan was made with the providers its stack's lock file names; the apply installs the same (a job that
     * applies has the synthesized output, which has no lock files, and the plan set).
     */
    private static void saveLockFile(Stack stack, Path clusterDir) {
        Path lock = stack.directory().resolve(LOCK_FILE);
        try {
            if (Files.isRegularFile(lock)) {
                Files.copy(lock, clusterDir.resolve(stack.name() + LOCK_FILE), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void restoreLockFile(Stack stack, SavedPlans.ClusterPlans plans) {
        Path saved = plans.dir().resolve(stack.name() + LOCK_FILE);
        Path lock = stack.directory().resolve(LOCK_FILE);
        try {
            if (Files.isRegularFile(saved) && !Files.exists(lock)) {
                Files.copy(saved, lock);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteIfExists(Path file) {
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
