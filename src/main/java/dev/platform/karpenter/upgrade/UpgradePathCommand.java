package dev.platform.karpenter.upgrade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.platform.karpenter.backend.StateBackends;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.TfvarsFile;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.versions.ApiGeneration;
import dev.platform.karpenter.versions.ControllerPolicy;
import dev.platform.karpenter.versions.DeclaredApis;
import dev.platform.karpenter.versions.InterruptionEvents;
import dev.platform.karpenter.versions.KarpenterRelease;
import dev.platform.karpenter.versions.KubernetesRange;
import dev.platform.karpenter.versions.UpgradeSteps;
import dev.platform.karpenter.versions.UpgradeSteps.Deployed;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bin/upgrade-path}: for a tfvars file and the deployed release (read from the IAM stack's state, or given),
 * the deploys that lead to a target, one allowed step each: the chart version and retired_api to set, the
 * Kubernetes range the step needs, what it changes (CRDs, pools, IAM, Helm values), whether the tfvars' other
 * settings hold for it, and what to check before the next. A cluster outside a step's Kubernetes range gets the
 * documented ways through, never a silent pass.
 */
public final class UpgradePathCommand {
    static final int EXIT_BAD_INPUT = 2;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DEPLOY = CdktfCli.command("deploy '*'");
    private static final String USAGE = "usage: bin/upgrade-path [--from VERSION [--from-api v1alpha5|v1beta1|v1]]"
            + " [--to VERSION] [--kubernetes 1.N] [TFVARS]";

    private UpgradePathCommand() {}

    public static void main(String[] args) {
        System.exit(run(Path.of("").toAbsolutePath(), args, System.getenv(), System.out, System.err));
    }

    /** Prints the path to {@code out}; bad input is one line on {@code err} and exit status 2. */
    static int run(Path projectDir, String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        try {
            Options options = Options.parse(args);
            Path file = options.tfvars()
                    .map(projectDir::resolve)
                    .orElseGet(() -> ConfigLoader.locate(projectDir, env, err));
            Map<String, Object> variables = TfvarsFile.parse(file);
            ClusterConfig config = ConfigLoader.fromVariables(variables);
            SpecCheck.requireValid(config);
            Deployed from = options.from().isPresent()
                    ? given(options.from().get(), options.fromApi())
                    : fromState(projectDir, config);
            KarpenterRelease target =
                    options.to().map(UpgradePathCommand::release).orElse(UpgradeSteps.newestRelease());
            List<DeclaredApis> steps;
            try {
                steps = UpgradeSteps.path(from, target);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage());
            }
            print(out, config, variables, from, target, steps, options.kubernetes());
            return 0;
        } catch (ConfigException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    private static Deployed given(String version, Optional<String> api) {
        KarpenterRelease release = release(version);
        DeclaredApis apis = DeclaredApis.keeping(release);
        ApiGeneration oldest =
                api.map(name -> parseGeneration("--from-api", name)).orElse(apis.oldestDeclared());
        return new Deployed(release, oldest);
    }

    /** The IAM stack's own outputs, as the step guard reads them. */
    private static Deployed fromState(Path projectDir, ClusterConfig config) {
        String stack = config.stackName(IamStack.CONCERN);
        if (config.backend().isRemote()) {
            throw new ConfigException("the state of " + stack + " is in s3://"
                    + config.backend().bucket().orElseThrow() + "/"
                    + StateBackends.stateKey(config.backend(), stack) + "; pass --from with its output "
                    + StepGuard.VERSION_OUTPUT + " (" + CdktfCli.command("output " + stack) + ")");
        }
        Path state = projectDir.resolve(StateBackends.localStatePath(stack, "."));
        JsonNode outputs;
        try {
            outputs = Files.size(state) == 0
                    ? JSON.createObjectNode()
                    : JSON.readTree(state.toFile()).path("outputs");
        } catch (IOException e) {
            throw new ConfigException("no state of " + stack + " in " + state.getParent()
                    + " (nothing deployed yet?): pass" + " --from VERSION, or deploy karpenter_chart_version directly");
        }
        String version = outputs.at("/" + StepGuard.VERSION_OUTPUT + "/value").asText("");
        String station = outputs.at("/" + StepGuard.STATION_OUTPUT + "/value").asText("");
        if (version.isEmpty()) {
            throw new ConfigException(state + " has no output " + StepGuard.VERSION_OUTPUT
                    + " (deployed by an earlier version of this project): pass --from VERSION");
        }
        return new Deployed(
                release(version),
                parseGeneration(
                        "the state's " + StepGuard.STATION_OUTPUT, station.substring(station.lastIndexOf('/') + 1)));
    }

    private static void print(
            PrintStream out,
            ClusterConfig config,
            Map<String, Object> variables,
            Deployed from,
            KarpenterRelease target,
            List<DeclaredApis> steps,
            Optional<String> kubernetes) {
        out.println("Karpenter " + from.release().chartVersion() + " is deployed on cluster " + config.clusterName()
                + " (pools declared as " + DeclaredApis.spelling(from.oldestDeclared()) + ").");
        if (steps.isEmpty()) {
            out.println("Nothing to do: that is " + target.chartVersion() + ".");
            return;
        }
        out.println(steps.size() + " step" + (steps.size() > 1 ? "s" : "") + " to " + target.chartVersion()
                + ", each one change of the tfvars and one deploy (" + DEPLOY + ", cdktf-cli " + CdktfCli.version()
                + "):");
        DeclaredApis before = DeclaredApis.keeping(from.release());
        before = before.oldestDeclared() == from.oldestDeclared() ? before : DeclaredApis.retiring(from.release());
        for (int i = 0; i < steps.size(); i++) {
            DeclaredApis step = steps.get(i);
            out.println();
            out.println((i + 1) + ". " + settingsLine(step));
            KubernetesRange range = step.release().supportedKubernetes();
            out.println("   Kubernetes " + range + kubernetesVerdict(range, kubernetes));
            if (!step.release().equals(before.release())) {
                out.println("   CRDs: the karpenter-crd chart " + step.release().chartVersion()
                        + " updates them before the controller");
            }
            out.println("   Pools: " + pools(step) + changed(pools(before), pools(step)));
            out.println("   IAM: controller policies " + String.join(", ", policyGroups(step))
                    + policyChange(policyGroups(before), policyGroups(step))
                    + (before.needsInstanceProfile() && !step.needsInstanceProfile()
                            ? "; the instance profile is deleted"
                            : "")
                    + (!before.release()
                                    .nodeEcrPolicyName()
                                    .equals(step.release().nodeEcrPolicyName())
                            ? "; a created node role gets " + step.release().nodeEcrPolicyName()
                            : ""));
            out.println("   Helm values: " + valueKeys(step) + changed(valueKeys(before), valueKeys(step)));
            int rulesBefore = InterruptionEvents.handledBy(before.release()).size();
            int rules = InterruptionEvents.handledBy(step.release()).size();
            if (rules != rulesBefore) {
                out.println("   Interruption: " + rules + " EventBridge rules (was " + rulesBefore + ")");
            }
            settingsProblem(variables, step)
                    .ifPresent(problem -> out.println("   Your other settings do not hold for this step: " + problem));
            for (String check : checksBeforeNext(config, step, i + 1 < steps.size() ? steps.get(i + 1) : null)) {
                out.println("   Before the next step: " + check);
            }
            if (kubernetes.isPresent() && !range.contains(kubernetes.get())) {
                waysThrough(out, config, step, target, kubernetes.get());
            }
            before = step;
        }
    }

    private static String settingsLine(DeclaredApis step) {
        String line = "karpenter_chart_version = \"" + step.release().chartVersion() + "\"";
        if (!step.servesTwoGenerations()) {
            return line;
        }
        return line
                + step.kept()
                        .map(kept -> ", keeping the " + DeclaredApis.spelling(kept) + " objects (retired_api not \""
                                + DeclaredApis.spelling(kept) + "\")")
                        .orElseGet(() -> ", retired_api = \""
                                + DeclaredApis.spelling(step.retired().orElseThrow()) + "\"");
    }

    private static String kubernetesVerdict(KubernetesRange range, Optional<String> kubernetes) {
        if (kubernetes.isEmpty()) {
            return " (pass --kubernetes with the cluster's version to check it)";
        }
        return range.contains(kubernetes.get())
                ? " (the cluster's " + kubernetes.get() + ": fits)"
                : " (the cluster runs " + kubernetes.get() + ": OUTSIDE, see below)";
    }

    private static String pools(DeclaredApis apis) {
        List<String> parts = new ArrayList<>();
        for (ApiGeneration generation : apis.rendered()) {
            parts.add(
                    switch (generation) {
                        case V1ALPHA5 -> "Provisioner + AWSNodeTemplate (karpenter.sh/v1alpha5)";
                        case V1BETA1 -> "NodePool + EC2NodeClass (karpenter.sh/v1beta1)";
                        case V1 -> "NodePool + EC2NodeClass (karpenter.sh/v1)";
                    });
        }
        return String.join(" beside ", parts);
    }

    private static List<String> policyGroups(DeclaredApis apis) {
        ControllerPolicy.Scope any = new ControllerPolicy.Scope(
                "aws", "region", "account", "cluster", "arn", "queue", "role", "ec2.amazonaws.com");
        return ControllerPolicy.groups(apis, any).stream()
                .map(ControllerPolicy.Group::name)
                .toList();
    }

    private static String valueKeys(DeclaredApis apis) {
        List<String> keys = new ArrayList<>(List.of(
                apis.valueKeys().clusterName().toString(),
                apis.valueKeys().clusterEndpoint().toString(),
                apis.valueKeys().interruptionQueue().toString()));
        apis.valueKeys().defaultInstanceProfile().ifPresent(path -> keys.add(path.toString()));
        return String.join(", ", keys);
    }

    private static String changed(String before, String after) {
        return before.equals(after) ? " (unchanged)" : " (was " + before + ")";
    }

    private static String policyChange(List<String> before, List<String> after) {
        List<String> added =
                after.stream().filter(name -> !before.contains(name)).toList();
        List<String> removed =
                before.stream().filter(name -> !after.contains(name)).toList();
        String change = (added.isEmpty() ? "" : "; added " + String.join(", ", added))
                + (removed.isEmpty() ? "" : "; removed " + String.join(", ", removed));
        return change.isEmpty() ? " (same policies)" : change;
    }

    /**
     * The tfvars with this step's version and retired_api, validated as the synth would, upstream fields included:
     * a spec written for the target's generation that the step's declared generation does not have shows here.
     */
    private static Optional<String> settingsProblem(Map<String, Object> variables, DeclaredApis step) {
        Map<String, Object> stepVariables = new LinkedHashMap<>(variables);
        stepVariables.put("karpenter_chart_version", step.release().chartVersion());
        stepVariables.remove("retired_api");
        stepVariables.remove("upgrade_override");
        step.retired().ifPresent(retired -> stepVariables.put("retired_api", DeclaredApis.spelling(retired)));
        try {
            SpecCheck.requireValid(ConfigLoader.fromVariables(stepVariables));
            return Optional.empty();
        } catch (ConfigException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static List<String> checksBeforeNext(ClusterConfig config, DeclaredApis step, DeclaredApis next) {
        List<String> checks = new ArrayList<>();
        checks.add("the controller runs the new version: kubectl -n " + config.namespace()
                + " get pods -l app.kubernetes.io/name=karpenter");
        if (next == null) {
            return checks;
        }
        if (step.kept().orElse(null) == ApiGeneration.V1ALPHA5 && next.kept().isEmpty()) {
            checks.add("no node of a Provisioner is left (the NodePools replace them as they are drained):"
                    + " kubectl get nodes -l karpenter.sh/provisioner-name prints nothing");
        }
        if (step.kept().orElse(null) == ApiGeneration.V1BETA1 && next.kept().isEmpty()) {
            checks.add(
                    "the conversion webhooks answer: kubectl get nodepools.v1.karpenter.sh,ec2nodeclasses.v1.karpenter.k8s.aws");
        }
        if (step.release().major() == 1
                && step.release().minor() == 0
                && next.release().minor() > 0) {
            checks.add(
                    "every object is stored as v1 (1.0.6 and later migrate them): kubectl get crd nodepools.karpenter.sh"
                            + " nodeclaims.karpenter.sh ec2nodeclasses.karpenter.k8s.aws -o jsonpath='{.items[*].status.storedVersions}'"
                            + " prints only v1");
        }
        return checks;
    }

    private static void waysThrough(
            PrintStream out, ClusterConfig config, DeclaredApis step, KarpenterRelease target, String kubernetes) {
        String cluster = config.clusterName();
        out.println("   ! Kubernetes " + kubernetes + " is outside "
                + step.release().chartVersion() + "'s range: its plan fails. Ways through:");
        out.println("     a) take this step anyway: add upgrade_override = \""
                + step.release().chartVersion()
                + "\" for this deploy (it waives the range check and the step guard for this version only; upstream"
                + " does not test the combination), then remove it");
        out.println("     b) install " + target.chartVersion()
                + " fresh, keeping IAM and the queue: "
                + CdktfCli.command("destroy " + cluster + "-nodepools " + cluster + "-karpenter")
                + " (Karpenter drains and terminates its nodes"
                + " first), then karpenter_chart_version = \"" + target.chartVersion() + "\" and upgrade_override = \""
                + target.chartVersion() + "\", " + DEPLOY + ", and remove upgrade_override");
    }

    private static KarpenterRelease release(String version) {
        return KarpenterRelease.of(version);
    }

    private static ApiGeneration parseGeneration(String what, String name) {
        for (ApiGeneration generation : ApiGeneration.values()) {
            if (DeclaredApis.spelling(generation).equals(name)) {
                return generation;
            }
        }
        throw new ConfigException(what + " must be v1alpha5, v1beta1 or v1, got \"" + name + "\"");
    }

    /** The command line. */
    record Options(
            Optional<String> from,
            Optional<String> fromApi,
            Optional<String> to,
            Optional<String> kubernetes,
            Optional<Path> tfvars) {
        static Options parse(String[] args) {
            Map<String, String> named = new LinkedHashMap<>();
            Path tfvars = null;
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (List.of("--from", "--from-api", "--to", "--kubernetes").contains(arg)) {
                    if (i + 1 == args.length) {
                        throw new ConfigException(arg + " needs a value; " + USAGE);
                    }
                    named.put(arg, args[++i]);
                } else if (arg.startsWith("-") || tfvars != null) {
                    throw new ConfigException("unexpected argument \"" + arg + "\"; " + USAGE);
                } else {
                    tfvars = Path.of(arg);
                }
            }
            Optional<String> kubernetes = Optional.ofNullable(named.get("--kubernetes"));
            kubernetes.ifPresent(version -> {
                if (!version.matches("1\\.[0-9]+")) {
                    throw new ConfigException(
                            "--kubernetes must be a Kubernetes minor version such as 1.29, got \"" + version + "\"");
                }
            });
            if (named.containsKey("--from-api") && !named.containsKey("--from")) {
                throw new ConfigException("--from-api needs --from; " + USAGE);
            }
            return new Options(
                    Optional.ofNullable(named.get("--from")),
                    Optional.ofNullable(named.get("--from-api")),
                    Optional.ofNullable(named.get("--to")),
                    kubernetes,
                    Optional.ofNullable(tfvars));
        }
    }
}
