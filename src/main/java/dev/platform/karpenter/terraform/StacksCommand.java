package dev.platform.karpenter.terraform;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.terraform.StackRunner.Action;
import dev.platform.karpenter.terraform.StackRunner.ClusterResult;
import dev.platform.karpenter.terraform.SynthesizedStacks.Cluster;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code bin/stacks}: plans, applies and destroys the synthesized stacks with Terraform alone (no cdktf CLI, no
 * Node.js), and lists the clusters of a synthesized output for CI's job matrix. See {@link #USAGE}.
 */
public final class StacksCommand {
    static final int EXIT_FAILED = 1;
    /** plan --detailed-exitcode: a stack has changes (drift, or a change to review), as Terraform's own code. */
    static final int EXIT_CHANGES = 2;
    /** apply --plans stopped before a stack whose saved plan is stale, changed or missing: plan again. */
    static final int EXIT_PLAN_AGAIN = 3;
    /** Bad usage or a missing/broken manifest (sysexits' EX_USAGE: 2 means changes here). */
    static final int EXIT_USAGE = 64;

    static final String USAGE = """
            usage: bin/stacks plan|apply|destroy|clusters [options]
              plan      terraform plan of every stack, read-only (-lock=false): no changes, changes, waiting
                        (a stack it reads from was never applied) or failed
              apply     terraform apply -auto-approve of every stack: per cluster iam and interruption, then
                        karpenter, then nodepools; a failing stack stops its cluster, the others go on
              destroy   terraform destroy -auto-approve of every stack, in the reverse order
              clusters  prints the clusters as a JSON array (CI's job matrix)
            options:
              --cluster NAME       only this cluster (repeat it, or NAME,NAME); default: every cluster
              --concern NAME       only these stacks of each cluster: iam, interruption, karpenter, nodepools
              --parallel N         clusters at once (default: the number of processors, %d here)
              --lock-timeout D     how long apply and destroy wait for a state lock held elsewhere (default 10m)
              --report DIR         plan: one Markdown report per cluster, DIR/<cluster>.md, and its outcomes
                                   as JSON, DIR/<cluster>.json (the nightly drift's fleet table)
              --detailed-exitcode  plan: exit 2 when a stack has changes, 0 when none has
              --out DIR            plan: save each stack's plan (terraform plan -out) in DIR/<cluster>/, with
                                   plans.json and SHA256SUMS: the SHA-256 of every plan file
              --plans DIR          apply: apply the plans saved in DIR (plan --out DIR) and nothing else; every
                                   file's SHA-256 is checked first. A stale plan (the state changed since) is refused;
                                   a stack whose upstream's apply changed an output its plan read is planned again,
                                   and not applied when its plan is no longer the saved one
              --outdir DIR         the synthesized output (default: $KARPENTER_OUTDIR, else cdktf.out)
              --plugin-mirror DIR  install providers only from this filesystem mirror (default: $TF_PLUGIN_MIRROR;
                                   unset: Terraform's own configuration, e.g. the public registry)
            exit status: 0 done, 1 a stack failed, 2 plan --detailed-exitcode found changes, 3 apply --plans
              stopped: a plan is stale, changed or missing (plan again, approve again), 64 bad usage
            """.formatted(Runtime.getRuntime().availableProcessors());

    private static final Pattern DURATION = Pattern.compile("\\d+(s|m|h)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StacksCommand() {}

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command; terraform output and the summary go to {@code out}, progress and errors to {@code err}. */
    static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        Options options;
        OutputInUse held;
        try {
            options = Options.parse(args, projectDir, env);
            if (options.help()) {
                out.print(USAGE);
                return 0;
            }
            held = OutputInUse.hold(options.outdir(), err);
        } catch (StacksException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        try (held) {
            return run(options, env, out, err);
        }
    }

    /** The run itself, while the output is held: no synthesis replaces it meanwhile. */
    private static int run(Options options, Map<String, String> env, PrintStream out, PrintStream err) {
        SynthesizedStacks synthesized;
        List<Cluster> clusters;
        Map<String, SavedPlans.ClusterPlans> saved = new java.util.LinkedHashMap<>();
        try {
            synthesized = SynthesizedStacks.read(options.outdir());
            clusters = synthesized.select(options.clusters());
            if (options.plans().isPresent()) {
                Path root = options.plans().get();
                if (options.clusters().isEmpty()) {
                    // the clusters that were planned
                    clusters = clusters.stream()
                            .filter(c -> SavedPlans.has(root, c.name()))
                            .toList();
                    if (clusters.isEmpty()) {
                        throw new StacksException(root + " holds no saved plans of a cluster of " + options.outdir()
                                + " (bin/stacks plan --out " + root + " makes them)");
                    }
                }
                for (Cluster cluster : clusters) {
                    saved.put(cluster.name(), SavedPlans.read(root, cluster.name()));
                }
            }
            requireKnownConcerns(clusters, options.concerns());
            if (options.action().equals(Optional.of(Action.DESTROY))) {
                requireDependentsDestroyedToo(clusters, options.concerns());
            }
        } catch (StacksException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        if (options.action().isEmpty()) {
            // A tree's text is compact JSON, with no checked exception to handle.
            out.println(JSON.valueToTree(clusters.stream().map(Cluster::name).toList())
                    .toString());
            return 0;
        }
        Action action = options.action().get();
        TerraformCli terraform;
        try {
            terraform = TerraformCli.configure(
                    env,
                    options.pluginMirror(),
                    options.outdir().toAbsolutePath().getParent().resolve(".terraform-plugin-cache"));
        } catch (StacksException e) {
            err.println("error: " + e.getMessage());
            return EXIT_USAGE;
        }
        long start = System.nanoTime();
        List<ClusterResult> results;
        try {
            StackRunner runner = new StackRunner(terraform, action, options.lockTimeout(), out, err);
            options.out().ifPresent(runner::savingPlansIn);
            if (!saved.isEmpty()) {
                runner.applyingSavedPlans(saved);
            }
            results = runner.run(clusters, options.concerns(), options.parallel());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return EXIT_FAILED;
        }
        if (options.report().isPresent()) {
            writeReports(options.report().get(), results);
        }
        out.print(Summary.text(action, results, java.time.Duration.ofNanos(System.nanoTime() - start)));
        if (results.stream().anyMatch(ClusterResult::failed)) {
            return EXIT_FAILED;
        }
        if (results.stream().anyMatch(ClusterResult::stopped)) {
            return EXIT_PLAN_AGAIN;
        }
        return options.detailedExitCode() && results.stream().anyMatch(ClusterResult::hasChanges) ? EXIT_CHANGES : 0;
    }

    /**
     * A destroy of some concerns takes every stack that depends on them too: destroying the controller or its role
     * under live node pools would leave their nodes (EC2 instances) behind. A dependent left out is accepted only where
     * its state is known to hold nothing without Terraform: a local state file that is missing or empty. Any other
     * (an S3 state) must be named; a stack without resources is then reported as having no state.
     */
    private static void requireDependentsDestroyedToo(List<Cluster> clusters, Set<String> concerns) {
        if (concerns.isEmpty()) {
            return;
        }
        Set<String> missing = new LinkedHashSet<>();
        for (Cluster cluster : clusters) {
            Set<String> destroyed = new LinkedHashSet<>();
            cluster.stacks().stream()
                    .filter(s -> concerns.contains(SynthesizedStacks.concern(s)))
                    .forEach(s -> destroyed.add(s.name()));
            boolean grew = true;
            while (grew) { // the dependents of dependents too
                grew = false;
                for (SynthesizedStacks.Stack stack : cluster.stacks()) {
                    if (!destroyed.contains(stack.name())
                            && stack.dependencies().stream().anyMatch(destroyed::contains)) {
                        // pulled from under too, empty or not: its own dependents are checked in turn
                        destroyed.add(stack.name());
                        if (!concerns.contains(SynthesizedStacks.concern(stack))
                                && !SynthesizedStacks.hasNoLocalState(stack)) {
                            missing.add(SynthesizedStacks.concern(stack));
                        }
                        grew = true;
                    }
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new StacksException(
                    "destroy --concern " + String.join(",", concerns) + " would pull stacks from under"
                            + " the " + String.join(", ", missing) + " stacks, which depend on them: add --concern "
                            + String.join(",", missing) + " (a stack without state is skipped)");
        }
    }

    private static void requireKnownConcerns(List<Cluster> clusters, Set<String> concerns) {
        Set<String> known = new LinkedHashSet<>();
        clusters.forEach(c -> c.stacks().forEach(s -> known.add(SynthesizedStacks.concern(s))));
        for (String concern : concerns) {
            if (!known.contains(concern)) {
                throw new StacksException(
                        "--concern " + concern + " names no stack (concerns: " + String.join(", ", known) + ")");
            }
        }
    }

    private static void writeReports(Path dir, List<ClusterResult> results) {
        try {
            Files.createDirectories(dir);
            for (ClusterResult cluster : results) {
                Files.writeString(
                        dir.resolve(cluster.cluster() + ".md"), PlanReport.markdown(cluster), StandardCharsets.UTF_8);
                Files.writeString(
                        dir.resolve(cluster.cluster() + ".json"), PlanReport.json(cluster), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parsed arguments; an empty action means {@code clusters}. */
    record Options(
            boolean help,
            Optional<Action> action,
            Set<String> clusters,
            Set<String> concerns,
            int parallel,
            String lockTimeout,
            Optional<Path> report,
            boolean detailedExitCode,
            Path outdir,
            Optional<Path> pluginMirror,
            Optional<Path> out,
            Optional<Path> plans) {

        static Options parse(String[] args, Path projectDir, Map<String, String> env) {
            if (args.length == 0) {
                throw new StacksException("name a command: plan, apply, destroy or clusters (--help says more)");
            }
            if (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
                return new Options(
                        true,
                        Optional.empty(),
                        Set.of(),
                        Set.of(),
                        1,
                        "",
                        Optional.empty(),
                        false,
                        projectDir,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty());
            }
            Optional<Action> action = switch (args[0]) {
                case "plan" -> Optional.of(Action.PLAN);
                case "apply" -> Optional.of(Action.APPLY);
                case "destroy" -> Optional.of(Action.DESTROY);
                case "clusters" -> Optional.empty();
                default ->
                    throw new StacksException(
                            "unknown command " + args[0] + ": plan, apply, destroy or clusters (--help says more)");
            };
            Set<String> clusters = new LinkedHashSet<>();
            Set<String> concerns = new LinkedHashSet<>();
            int parallel = Runtime.getRuntime().availableProcessors();
            String lockTimeout = "10m";
            Optional<Path> report = Optional.empty();
            Optional<Path> out = Optional.empty();
            Optional<Path> plans = Optional.empty();
            boolean detailed = false;
            String outdir = env.getOrDefault("KARPENTER_OUTDIR", "");
            String mirror = env.getOrDefault("TF_PLUGIN_MIRROR", "");
            List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
            while (!rest.isEmpty()) {
                String option = rest.remove(0);
                if (option.equals("--detailed-exitcode")) {
                    detailed = true;
                    continue;
                }
                if (!option.startsWith("--")) {
                    throw new StacksException("unexpected argument " + option + " (--help says what is allowed)");
                }
                if (rest.isEmpty()) {
                    throw new StacksException(option + " needs a value");
                }
                String value = rest.remove(0);
                switch (option) {
                    case "--cluster" -> clusters.addAll(names(value));
                    case "--concern" -> concerns.addAll(names(value));
                    case "--parallel" -> parallel = parallel(value);
                    case "--lock-timeout" -> lockTimeout = duration(value);
                    case "--report" -> report = Optional.of(projectDir.resolve(value));
                    case "--out" -> out = Optional.of(projectDir.resolve(value));
                    case "--plans" -> plans = Optional.of(projectDir.resolve(value));
                    case "--outdir" -> outdir = value;
                    case "--plugin-mirror" -> mirror = value;
                    default -> throw new StacksException("unknown option " + option + " (--help says what is allowed)");
                }
            }
            if (action.isPresent() && action.get() != Action.PLAN && (report.isPresent() || detailed)) {
                throw new StacksException("--report and --detailed-exitcode are options of plan only");
            }
            if (out.isPresent() && !action.equals(Optional.of(Action.PLAN))) {
                throw new StacksException("--out is an option of plan only (apply takes saved plans with --plans)");
            }
            if (plans.isPresent() && !action.equals(Optional.of(Action.APPLY))) {
                throw new StacksException("--plans is an option of apply only (plan saves plans with --out)");
            }
            if (plans.isPresent() && !concerns.isEmpty()) {
                throw new StacksException("apply --plans applies the stacks that were planned: --concern is an option"
                        + " of the plan (plan --out DIR --concern ...)");
            }
            return new Options(
                    false,
                    action,
                    Set.copyOf(clusters),
                    Set.copyOf(concerns),
                    parallel,
                    lockTimeout,
                    report,
                    detailed,
                    projectDir.resolve(outdir.isBlank() ? "cdktf.out" : outdir).normalize(),
                    mirror.isBlank() ? Optional.empty() : Optional.of(projectDir.resolve(mirror)),
                    out,
                    plans);
        }

        private static List<String> names(String value) {
            List<String> names = new ArrayList<>();
            for (String name : value.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.strip());
                }
            }
            if (names.isEmpty()) {
                throw new StacksException("an empty name: " + value);
            }
            return names;
        }

        private static int parallel(String value) {
            try {
                int parallel = Integer.parseInt(value);
                if (parallel >= 1 && parallel <= 64) {
                    return parallel;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new StacksException("--parallel " + value + ": a number of clusters from 1 to 64");
        }

        private static String duration(String value) {
            if (!DURATION.matcher(value.toLowerCase(Locale.ROOT)).matches()) {
                throw new StacksException("--lock-timeout " + value + ": a duration such as 30s, 10m or 1h");
            }
            return value.toLowerCase(Locale.ROOT);
        }
    }
}
