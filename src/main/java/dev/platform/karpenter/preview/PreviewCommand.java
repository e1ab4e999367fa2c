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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/preview}: per cluster and pool, the instance types each pool can launch, their ranges, the cheapest
 * on-demand ones, and what the limits allow, from the configuration synth reads. Offline: the catalogue ships with
 * the app.
 */
public final class PreviewCommand {
    static final int EXIT_BAD_INPUT = 2;
    static final String USAGE = """
            usage: bin/preview [--json | --markdown [--base BASE_JSON]] [--cluster NAME]... [TFVARS]
            Which instance types each node pool can launch, and what it can cost, before deploying: per cluster and
            pool, the number of types, their families, the ranges of vCPU, memory and pods, the five cheapest
            on-demand types with their price, the most nodes the limits allow and the ceiling cost per month at
            on-demand list prices; then the warnings. Reads the configuration as synth does (TFVARS, else
            KARPENTER_TFVARS, terraform.tfvars or the example; a file or a directory). No AWS access.
              --json           the same as JSON: {"<cluster>": {"pools": {"<pool>": {"instance_types": [...],
                               "cheapest": {"type": ..., "usd_per_hour": ...}, ...}}}}
              --markdown       the same as Markdown, for a pull request's report (bin/plan-stacks appends it)
              --base FILE      with --markdown: what --json printed for the base branch; adds the types each pool
                               gains or loses and its ceiling cost before and after
              --cluster NAME   only this cluster (repeatable)
            """;

    private PreviewCommand() {}

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err);
        System.exit(status);
    }

    static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        boolean json = false;
        boolean markdown = false;
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
                case "--base", "--cluster" -> {
                    if (i + 1 == args.length) {
                        err.println("preview: " + arg + " needs a value (see --help)");
                        return EXIT_BAD_INPUT;
                    }
                    String value = args[++i];
                    if (arg.equals("--base")) {
                        base = Optional.of(projectDir.resolve(value));
                    } else {
                        clusters.add(value);
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
        if (json && markdown || base.isPresent() && !markdown) {
            err.println("preview: --json or --markdown, and --base only with --markdown (see --help)");
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
            List<ClusterPreview> previews = configs.stream()
                    .filter(config -> clusters.isEmpty() || clusters.contains(config.clusterName()))
                    .map(config -> ClusterPreview.of(config, catalogue))
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
                            ? PreviewReport.json(previews, catalogue) + "\n"
                            : markdown
                                    ? PreviewMarkdown.of(previews, catalogue, baseline)
                                    : PreviewReport.text(previews, catalogue));
            return 0;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }
}
