package dev.platform.karpenter.preview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code bin/preview}: per cluster and pool, the instance types each pool can launch, their ranges, the cheapest
 * on-demand ones, and what the limits allow, from the configuration synth reads. Offline: the catalogue ships with
 * the app.
 */
public final class PreviewCommand {
    static final int EXIT_BAD_INPUT = 2;
    /** --strict and some warning. */
    static final int EXIT_WARNINGS = 1;

    static final String USAGE = """
            usage: bin/preview [--json | --markdown] [--base BASE_JSON] [--at INSTANT] [--nodes N]
                               [--replace-minutes M] [--strict] [--cluster NAME]... [TFVARS]
            Which instance types each node pool can launch, and what it can cost, before deploying: per cluster and
            pool, the number of types, their families, the ranges of vCPU, memory and pods, the five cheapest
            on-demand types with their price, the most nodes the limits allow and the ceiling cost per month at
            on-demand list prices; then the warnings. Reads the configuration as synth does (TFVARS, else
            KARPENTER_TFVARS, terraform.tfvars or the example; a file or a directory). No AWS access.
              --json           the same as JSON: {"<cluster>": {"pools": {"<pool>": {"instance_types": [...],
                               "cheapest": {"type": ..., "usd_per_hour": ...}, ...}}}}
              --markdown       the same as Markdown, for a pull request's report (bin/plan-stacks appends it)
              --base FILE      what --json printed for the base branch: with --markdown, the types each pool gains
                               or loses, its ceiling cost before and after, and what the change replaces; with
                               --json, each pool's "drift": {"causes": [{"kind": static|ami|network|
                               capacity_reservations|requirements|none, "fields": [...]}], "every_node": ...}
              --at INSTANT     the start of the seven days the disruption timeline covers (UTC, e.g.
                               2027-01-04T00:00:00Z; default now): per pool, how many nodes Karpenter may disrupt at
                               once for Drifted, Underutilized and Empty, as its budgets allow (docs/guides/disruption.md)
              --nodes N        the node count budget percentages apply to (default: the most each pool's limits allow)
              --replace-minutes M
                               how long replacing one node takes, for the drift rollout time (default 10)
              --strict         exit 1 when there is any warning (for CI)
              --cluster NAME   only this cluster (repeatable)
            """;

    private PreviewCommand() {}

    private static long atLeast(String value, long least) {
        long parsed = Long.parseLong(value);
        if (parsed < least) {
            throw new NumberFormatException(value);
        }
        return parsed;
    }

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err);
        System.exit(status);
    }

    static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        boolean json = false;
        boolean markdown = false;
        boolean strict = false;
        Instant at = Instant.now();
        OptionalLong nodes = OptionalLong.empty();
        Duration replace = PoolDisruption.DEFAULT_REPLACE;
        Optional<Path> base = Optional.empty();
        Set<String> clusters = new LinkedHashSet<>();
        List<String> files = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "--json" -> json = true;
                case "--markdown" -> markdown = true;
                case "--strict" -> strict = true;
                case "--base", "--cluster", "--at", "--nodes", "--replace-minutes" -> {
                    if (i + 1 == args.length) {
                        err.println("preview: " + arg + " needs a value (see --help)");
                        return EXIT_BAD_INPUT;
                    }
                    String value = args[++i];
                    try {
                        switch (arg) {
                            case "--base" -> base = Optional.of(projectDir.resolve(value));
                            case "--at" -> at = Instant.parse(value);
                            case "--nodes" -> nodes = OptionalLong.of(atLeast(value, 0));
                            case "--replace-minutes" -> replace = Duration.ofMinutes(atLeast(value, 1));
                            default -> clusters.add(value);
                        }
                    } catch (DateTimeParseException | NumberFormatException e) {
                        err.println("preview: " + arg + " " + value + " is not "
                                + (arg.equals("--at")
                                        ? "an instant such as 2027-01-04T00:00:00Z"
                                        : arg.equals("--nodes")
                                                ? "a whole number, 0 or more"
                                                : "a whole number, 1 or more")
                                + " (see --help)");
                        return EXIT_BAD_INPUT;
                    }
                }
                default -> {
                    if (arg.startsWith("-")) {
                        err.println("preview: unknown option " + arg + " (see --help)");
                        return EXIT_BAD_INPUT;
                    }
                    files.add(arg);
                }
            }
        }
        if (files.size() > 1) {
            err.println("preview: one TFVARS file or directory at most (see --help)");
            return EXIT_BAD_INPUT;
        }
        if (json && markdown || base.isPresent() && !markdown && !json) {
            err.println("preview: --json or --markdown, and --base only with one of them (see --help)");
            return EXIT_BAD_INPUT;
        }
        Optional<JsonNode> baseline;
        try {
            baseline = base.isPresent()
                    ? Optional.of(new ObjectMapper().readTree(base.get().toFile()))
                    : Optional.empty();
        } catch (IOException e) {
            err.println("preview: --base " + base.get() + " is not what --json prints: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
        try {
            // Where the configuration comes from goes to stderr: stdout is the report (or JSON).
            Path source =
                    ConfigLoader.locate(projectDir, files.stream().map(Path::of).findFirst(), env, err);
            List<ClusterConfig> configs =
                    ConfigLoader.load(ConfigLoader.files(source, err), env, SpecCheck::requireValid);
            InstanceCatalogue catalogue = InstanceCatalogue.shipped();
            PoolDisruption.Options options = new PoolDisruption.Options(at, nodes, replace);
            List<ClusterPreview> previews = configs.stream()
                    .filter(config -> clusters.isEmpty() || clusters.contains(config.clusterName()))
                    .map(config -> ClusterPreview.of(config, catalogue, options))
                    .toList();
            if (previews.size() < clusters.size()) {
                err.println("preview: no cluster named "
                        + clusters.stream()
                                .filter(name -> previews.stream()
                                        .noneMatch(p -> p.config().clusterName().equals(name)))
                                .findFirst()
                                .orElseThrow()
                        + " in " + source);
                return EXIT_BAD_INPUT;
            }
            out.print(
                    json
                            ? PreviewReport.json(previews, catalogue, baseline) + "\n"
                            : markdown
                                    ? PreviewMarkdown.of(previews, catalogue, baseline)
                                    : PreviewReport.text(previews, catalogue));
            long warnings = previews.stream()
                    .mapToLong(preview -> preview.warnings().size())
                    .sum();
            if (strict && warnings > 0) {
                err.println("preview: --strict: " + warnings + " warning" + (warnings == 1 ? "" : "s"));
                return EXIT_WARNINGS;
            }
            return 0;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }
}
