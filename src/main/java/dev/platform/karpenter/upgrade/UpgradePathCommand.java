package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.TfvarsFile;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/upgrade-path}: for a tfvars file and the deployed release (read from the IAM stack's state, or given),
 * the deploys that lead to a target, one allowed step each: the chart version and retired_api to set, the
 * Kubernetes range the step needs, what it changes (CRDs, pools, IAM, Helm values, the fields a new API generation
 * moves), whether the tfvars' other settings hold for it, and what to check before the next. A cluster outside a
 * step's Kubernetes range gets the documented ways through, never a silent pass.
 *
 * <p>The parts: {@link UpgradeOptions} (the command line), {@link DeployedState} (the state, as the step guard
 * reads it too), {@link UpgradeReport} (what is reported) and {@link UpgradeReportPrinter} (its text).
 */
public final class UpgradePathCommand {
    static final String HELP = """
              Prints the deploys that carry the cluster from its deployed Karpenter (read from the IAM stack's
              local state, or --from) to --to (default: the newest supported), one step upstream allows each: the
              chart version and retired_api to set, the Kubernetes range, what changes, what to check before the
              next. TFVARS: the cluster's configuration (default: KARPENTER_TFVARS, terraform.tfvars, the example).
              --kubernetes 1.N: the cluster's Kubernetes version, for the range checks.
              Guide: docs/guides/upgrading-from-v0.30.md""";

    static final int EXIT_BAD_INPUT = 2;

    private UpgradePathCommand() {}

    public static void main(String[] args) {
        System.exit(run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err));
    }

    /**
     * Prints the path to {@code out}; bad input is one line on {@code err} and exit status 2. Public for the adoption
     * walk (adopt.AdoptionIT), which starts it on an adopted installation's state.
     */
    public static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (java.util.Arrays.asList(args).contains("--help")) {
            out.println(UpgradeOptions.USAGE);
            out.println(HELP);
            return 0;
        }
        try {
            UpgradeOptions options = UpgradeOptions.parse(args);
            Path file = ConfigLoader.locate(projectDir, options.tfvars(), env, err);
            if (Files.isDirectory(file)) { // KARPENTER_TFVARS names one for several clusters
                throw new ConfigException(file + " is a directory: bin/upgrade-path walks one cluster; name its file ("
                        + "bin/upgrade-path " + file.resolve("<cluster>.tfvars") + ")");
            }
            Map<String, Object> variables = TfvarsFile.parse(file);
            ClusterConfig config = ConfigLoader.fromVariables(variables);
            SpecCheck.requireValid(config);
            Deployed from = options.from()
                    .map(release -> new Deployed(
                            release,
                            options.fromApi()
                                    .orElse(DeclaredApis.keeping(release).oldestDeclared())))
                    .orElseGet(() -> DeployedState.of(config).read(projectDir));
            KarpenterRelease target = options.to().orElse(KarpenterRelease.newest());
            List<DeclaredApis> steps;
            try {
                steps = UpgradeSteps.path(from, target);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
            UpgradeReportPrinter.lines(UpgradeReport.of(config, variables, from, target, steps, options.kubernetes()))
                    .forEach(out::println);
            return 0;
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }
}
