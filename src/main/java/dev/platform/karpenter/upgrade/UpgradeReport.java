package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.ConfigLoader;
import dev.platform.karpenter.config.NodeClassSettings;
import dev.platform.karpenter.config.PoolSettings;
import dev.platform.karpenter.config.PoolsAndNodeClasses;
import dev.platform.karpenter.controller.ControllerStack;
import dev.platform.karpenter.nodepools.NodePoolsStack;
import dev.platform.karpenter.nodepools.manifest.SpecCheck;
import dev.platform.karpenter.policy.ControllerPolicy;
import dev.platform.karpenter.release.ApiGeneration;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.FieldMoves;
import dev.platform.karpenter.release.FieldMoves.Holder;
import dev.platform.karpenter.release.InterruptionEvents;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.KubernetesRange;
import dev.platform.karpenter.release.ServedApis;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What bin/upgrade-path reports, as a value: the deployed release, the target, and per step what to set and what
 * the deploy changes. {@link UpgradeReportPrinter} turns it into lines.
 *
 * @param reinstalled the stacks a fresh install of the target destroys first (the controller's and the pools')
 * @param kubernetes the cluster's Kubernetes version, when given
 * @param setsSpecs  whether the tfvars set any upstream spec (node_pool_spec, node_pools[].spec, node_class_spec,
 *                   node_classes[].spec), whose moved fields each step names
 */
record UpgradeReport(
        String cluster,
        String namespace,
        List<String> reinstalled,
        Deployed from,
        KarpenterRelease target,
        Optional<String> kubernetes,
        boolean setsSpecs,
        List<Step> steps) {
    UpgradeReport {
        reinstalled = List.copyOf(reinstalled);
        steps = List.copyOf(steps);
    }

    /** What to look at before the next step. */
    enum Check {
        /** Always: the controller runs the new version. */
        CONTROLLER_RUNS,
        /** Before retiring v1alpha5: no node of a Provisioner is left. */
        NO_PROVISIONER_NODES,
        /** Before retiring v1beta1: the conversion webhooks answer. */
        CONVERSION_WEBHOOKS,
        /** Before leaving 1.0: every object is stored as v1. */
        STORED_AS_V1
    }

    /**
     * One of the user's spec fields that moves at a step.
     *
     * @param setting   where the user wrote it: node_pool_spec, node_pools[N].spec, node_class_spec...
     * @param toSetting where it goes, when that is another setting (a pool's kubelet into its node class's spec)
     */
    record MovedField(String setting, FieldMoves.Move move, Optional<String> toSetting) {}

    /**
     * One deploy and what it changes against the one before.
     *
     * @param settingsProblem the first setting that does not hold for this step, as the synth would say it
     * @param changes         the generation changes the step makes, each with every field it moves
     * @param movedFields     the fields of the user's specs those changes move
     */
    record Step(
            DeclaredApis apis,
            DeclaredApis before,
            List<String> policies,
            List<String> policiesBefore,
            int interruptionRules,
            int interruptionRulesBefore,
            Optional<String> settingsProblem,
            List<FieldMoves.Change> changes,
            List<MovedField> movedFields,
            List<Check> checksBeforeNext) {
        Step {
            policies = List.copyOf(policies);
            policiesBefore = List.copyOf(policiesBefore);
            changes = List.copyOf(changes);
            movedFields = List.copyOf(movedFields);
            checksBeforeNext = List.copyOf(checksBeforeNext);
        }

        KubernetesRange kubernetesRange() {
            return apis.release().supportedKubernetes();
        }

        boolean updatesCrds() {
            return !apis.release().equals(before.release());
        }

        boolean deletesInstanceProfile() {
            return before.needsInstanceProfile() && !apis.needsInstanceProfile();
        }

        /** The node ECR policy a created node role gets at this step, where it changes. */
        Optional<String> newNodeEcrPolicy() {
            String policy = apis.release().nodeEcrPolicyName();
            return policy.equals(before.release().nodeEcrPolicyName()) ? Optional.empty() : Optional.of(policy);
        }
    }

    /**
     * The report of {@code steps} from {@code from} to {@code target} for {@code config}, read from
     * {@code variables} (which each step's settings are checked with).
     */
    static UpgradeReport of(
            ClusterConfig config,
            Map<String, Object> variables,
            Deployed from,
            KarpenterRelease target,
            List<DeclaredApis> steps,
            Optional<String> kubernetes) {
        List<Step> reported = new ArrayList<>();
        DeclaredApis before = DeclaredApis.keeping(from.release());
        before = before.oldestDeclared() == from.oldestDeclared() ? before : DeclaredApis.retiring(from.release());
        for (int i = 0; i < steps.size(); i++) {
            DeclaredApis step = steps.get(i);
            List<FieldMoves.Change> changes = changes(before, step);
            reported.add(new Step(
                    step,
                    before,
                    policyGroups(step),
                    policyGroups(before),
                    InterruptionEvents.handledBy(step.release()).size(),
                    InterruptionEvents.handledBy(before.release()).size(),
                    settingsProblem(variables, step),
                    changes,
                    movedFields(config.poolsAndClasses(), changes),
                    checksBeforeNext(step, i + 1 < steps.size() ? Optional.of(steps.get(i + 1)) : Optional.empty())));
            before = step;
        }
        PoolsAndNodeClasses settings = config.poolsAndClasses();
        boolean setsSpecs =
                settings.pools().stream().anyMatch(pool -> !pool.spec().isEmpty())
                        || settings.nodeClasses().stream()
                                .anyMatch(nodeClass -> !nodeClass.spec().isEmpty());
        return new UpgradeReport(
                config.clusterName(),
                config.namespace(),
                List.of(config.stackName(NodePoolsStack.CONCERN), config.stackName(ControllerStack.CONCERN)),
                from,
                target,
                kubernetes,
                setsSpecs,
                reported);
    }

    /** The generations first declared at {@code step}: its newest declared one is newer than before. */
    static List<FieldMoves.Change> changes(DeclaredApis before, DeclaredApis step) {
        ApiGeneration newestBefore = newestDeclared(before);
        return FieldMoves.all().stream()
                .filter(change ->
                        change.to().compareTo(newestBefore) > 0 && change.to().compareTo(newestDeclared(step)) <= 0)
                .toList();
    }

    private static ApiGeneration newestDeclared(DeclaredApis apis) {
        List<ApiGeneration> rendered = apis.rendered();
        return rendered.get(rendered.size() - 1);
    }

    /** The fields of every pool's and node class's spec that {@code changes} move, pools first. */
    static List<MovedField> movedFields(PoolsAndNodeClasses settings, List<FieldMoves.Change> changes) {
        List<MovedField> moved = new ArrayList<>();
        for (FieldMoves.Change change : changes) {
            for (int i = 0; i < settings.pools().size(); i++) {
                PoolSettings pool = settings.pools().get(i);
                String setting = pool.specSetting();
                for (FieldMoves.Move move : change.setIn(Holder.POOL, pool.spec())) {
                    Optional<String> toSetting = move.toHolder() == Holder.NODE_CLASS
                            ? Optional.of(nodeClassSetting(settings, pool.nodeClass()))
                            : Optional.empty();
                    moved.add(new MovedField(setting, move, toSetting));
                }
            }
            for (int i = 0; i < settings.nodeClasses().size(); i++) {
                NodeClassSettings nodeClass = settings.nodeClasses().get(i);
                for (FieldMoves.Move move : change.setIn(Holder.NODE_CLASS, nodeClass.spec())) {
                    moved.add(new MovedField(nodeClass.specSetting(), move, Optional.empty()));
                }
            }
        }
        return List.copyOf(moved);
    }

    private static String nodeClassSetting(PoolsAndNodeClasses settings, String name) {
        List<NodeClassSettings> nodeClasses = settings.nodeClasses();
        for (int i = 0; i < nodeClasses.size(); i++) {
            if (nodeClasses.get(i).name().equals(name)) {
                return nodeClasses.get(i).specSetting();
            }
        }
        throw new IllegalStateException("no node class " + name + " (the configuration checks node_class)");
    }

    private static List<String> policyGroups(DeclaredApis apis) {
        // Only the groups' names are reported, which no part of the scope changes.
        ControllerPolicy.Scope any = new ControllerPolicy.Scope(
                "aws", "region", "account", "cluster", "arn", "queue", "role", "ec2.amazonaws.com");
        return ControllerPolicy.groups(apis, any).stream()
                .map(ControllerPolicy.Group::name)
                .toList();
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

    private static List<Check> checksBeforeNext(DeclaredApis step, Optional<DeclaredApis> next) {
        List<Check> checks = new ArrayList<>(List.of(Check.CONTROLLER_RUNS));
        if (next.isEmpty()) {
            return checks;
        }
        boolean nextRetires = next.get().kept().isEmpty();
        if (step.kept().orElse(null) == ApiGeneration.V1ALPHA5 && nextRetires) {
            checks.add(Check.NO_PROVISIONER_NODES);
        }
        if (step.kept().orElse(null) == ApiGeneration.V1BETA1 && nextRetires) {
            checks.add(Check.CONVERSION_WEBHOOKS);
        }
        if (step.release().row().served() == ServedApis.V1_BESIDE_V1BETA1
                && next.get().release().row().served() != step.release().row().served()) {
            checks.add(Check.STORED_AS_V1);
        }
        return checks;
    }
}
