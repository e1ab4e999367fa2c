package dev.platform.karpenter.adopt;

import dev.platform.karpenter.config.ConfigException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bin/adopt}: reads a Karpenter installation another tool made (an old Terraform root's state) and prints the
 * way in without an outage: the tfvars lines (the adopt setting and the names) on standard output, the old root's
 * removed blocks into {@code --removed FILE}, and what was found, left out and the steps on standard error. Bad
 * input is one line and exit status 2, with nothing written.
 */
public final class AdoptCommand {
    static final int EXIT_BAD_INPUT = 2;
    static final String USAGE = "usage: bin/adopt --state FILE [--cluster NAME] [--removed FILE]"
            + " [--helm-release NAMESPACE/NAME]... | bin/adopt --cloudformation-stack FILE [--cluster NAME]"
            + " [--helm-release NAMESPACE/NAME]...";
    private static final String HELM_RELEASE = "--helm-release";
    private static final List<String> OPTIONS =
            List.of("--state", "--cluster", "--removed", "--cloudformation-stack", HELM_RELEASE);

    private AdoptCommand() {}

    public static void main(String[] args) {
        System.exit(run(Path.of("").toAbsolutePath(), args, System.out, System.err));
    }

    static int run(Path workingDir, String[] args, PrintStream out, PrintStream err) {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            help().forEach(out::println);
            return 0;
        }
        try {
            List<String> helmReleases = new ArrayList<>();
            Map<String, String> options = parse(args, helmReleases);
            Optional<String> cluster = Optional.ofNullable(options.get("--cluster"));
            Optional<Path> removed =
                    Optional.ofNullable(options.get("--removed")).map(workingDir::resolve);
            if (removed.isPresent() && Files.exists(removed.get(), LinkOption.NOFOLLOW_LINKS)) {
                // Another run's blocks (another cluster of the same state) would be lost, and the old root would
                // then plan to destroy that cluster's resources.
                throw new ConfigException("--removed " + ConfigException.quote(options.get("--removed"))
                        + " exists: name a new file (each run writes the removed blocks of one cluster)");
            }
            Findings findings;
            if (options.containsKey("--state")) {
                Path state = existing(workingDir, options, "--state", "terraform show -json output or a .tfstate file");
                findings = StateAdopter.adopt(
                        OldState.read(state), state.getFileName().toString(), cluster, helmReleases);
            } else {
                Path resources = existing(
                        workingDir,
                        options,
                        "--cloudformation-stack",
                        "the output of aws cloudformation describe-stack-resources --stack-name NAME");
                findings = CloudFormationAdopter.adopt(resources, cluster, helmReleases);
            }
            if (removed.isPresent()) {
                writeWhole(removed.get(), AdoptionText.removedBlocks(findings));
            }
            AdoptionText.tfvars(findings).forEach(out::println);
            AdoptionText.report(findings, removed.isPresent()).forEach(err::println);
            return 0;
        } catch (ConfigException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    /** The options given once, by name; each --helm-release's value goes to {@code helmReleases}. */
    private static Map<String, String> parse(String[] args, List<String> helmReleases) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!OPTIONS.contains(args[i])) {
                throw new ConfigException("unknown argument " + ConfigException.quote(args[i]) + "; " + USAGE);
            }
            if (i + 1 == args.length) {
                throw new ConfigException(args[i] + " needs a value; " + USAGE);
            }
            if (args[i].equals(HELM_RELEASE)) {
                helmReleases.add(args[++i]);
            } else if (options.put(args[i], args[i + 1]) != null) {
                throw new ConfigException(args[i] + " is given twice; " + USAGE);
            } else {
                i++;
            }
        }
        if (options.containsKey("--state") == options.containsKey("--cloudformation-stack")) {
            throw new ConfigException("give one of --state FILE and --cloudformation-stack FILE; " + USAGE);
        }
        if (options.containsKey("--cloudformation-stack") && options.containsKey("--removed")) {
            throw new ConfigException("--removed writes removed blocks for a Terraform root; a CloudFormation stack"
                    + " is let go by the steps bin/adopt prints; " + USAGE);
        }
        return options;
    }

    private static Path existing(Path workingDir, Map<String, String> options, String option, String what) {
        Path file = workingDir.resolve(options.get(option));
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(
                    option + " " + ConfigException.quote(options.get(option)) + " is no file: give " + what);
        }
        return file;
    }

    /** Writes beside the target, then moves it into place: a failure leaves no half-written file. */
    private static void writeWhole(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Path temporary = Files.createTempFile(parent, ".adopt-", ".tmp");
            try {
                Files.writeString(temporary, text);
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new ConfigException(
                    "--removed " + ConfigException.quote(file.toString()) + ": cannot write: " + e.getMessage());
        }
    }

    static List<String> help() {
        return List.of(
                USAGE,
                "",
                "Adopts a Karpenter that another tool deployed, without an outage (docs/guides/adopting.md).",
                "  --state FILE    the old Terraform root's state: 'terraform show -json' output or a .tfstate file;"
                        + " it recognises",
                "                  terraform-aws-modules/eks//modules/karpenter v19.x, v20.x and v21.x, and"
                        + " helm_release and",
                "                  kubectl_manifest resources of Karpenter, as the seed guide writes them",
                "  --cloudformation-stack FILE  instead of --state: upstream's getting-started CloudFormation stack, as"
                        + " 'aws cloudformation",
                "                  describe-stack-resources --stack-name NAME' prints it",
                "  --cluster NAME  the cluster to adopt, when the state holds several",
                "  --removed FILE  write the old root's removed blocks there (Terraform 1.7+): with them the old"
                        + " root forgets",
                "                  every adopted resource and destroys nothing; FILE must not exist yet",
                "  --helm-release NAMESPACE/NAME  a karpenter or karpenter-crd release installed with the Helm CLI"
                        + " (helm list -A),",
                "                  which no state holds: it is imported, not installed a second time; once per"
                        + " release",
                "Standard output: the tfvars lines to add (the adopt setting and the names to keep). Standard error:"
                        + " what was found,",
                "what is not taken over and why, and the steps in order. Bad input: one line, exit status 2,"
                        + " nothing written.");
    }
}
