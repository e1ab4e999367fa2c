package dev.platform.karpenter.preview;

import dev.platform.karpenter.catalog.InstanceCatalogue;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/preview}: per cluster and pool, the instance types each pool can launch, their ranges, the cheapest
 * on-demand ones, and what the limits allow, from the configuration synth reads. Offline: the catalogue ships with
 * the app.
 */
public final class PreviewCommand {
    static final int EXIT_BAD_INPUT = 2;
    static final String USAGE = """
            usage: bin/preview [--json] [TFVARS]
            Which instance types each node pool can launch, and what it can cost, before deploying: per cluster and
            pool, the number of types, their families, the ranges of vCPU, memory and pods, the five cheapest
            on-demand types with their price, the most nodes the limits allow and the ceiling cost per month at
            on-demand list prices; then the warnings. Reads the configuration as synth does (TFVARS, else
            KARPENTER_TFVARS, terraform.tfvars or the example; a file or a directory). No AWS access.
              --json   the same as JSON: {"<cluster>": {"pools": {"<pool>": {"instance_types": [...], "cheapest": ...}}}}
            """;

    private PreviewCommand() {}

    public static void main(String[] args) {
        int status = run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err);
        System.exit(status);
    }

    static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        boolean json = false;
        List<String> files = new ArrayList<>();
        for (String arg : args) {
            switch (arg) {
                case "--help", "-h" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "--json" -> json = true;
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
        Map<String, String> environment = new HashMap<>(env);
        if (!files.isEmpty()) {
            environment.put(
                    ConfigLoader.ENV_VARIABLE, projectDir.resolve(files.get(0)).toString());
        }
        try {
            // Where the configuration comes from goes to stderr: stdout is the report (or JSON).
            Path source = ConfigLoader.locate(projectDir, environment, err);
            List<ClusterConfig> configs =
                    ConfigLoader.load(ConfigLoader.files(source, err), environment, SpecCheck::requireValid);
            InstanceCatalogue catalogue = InstanceCatalogue.shipped();
            List<ClusterPreview> previews = configs.stream()
                    .map(config -> ClusterPreview.of(config, catalogue))
                    .toList();
            out.print(json ? PreviewReport.json(previews, catalogue) + "\n" : PreviewReport.text(previews, catalogue));
            return 0;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }
}
