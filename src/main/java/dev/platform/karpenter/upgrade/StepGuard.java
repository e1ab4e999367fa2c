package dev.platform.karpenter.upgrade;

import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.nodepools.NodePoolsStack;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses, at plan and before anything is applied, a deploy that upstream does not allow after the one before
 * (v0.30 straight to 1.x, 1.0 from an older 0.33 patch, 1.1 with pools still declared as v1beta1...), naming the
 * next allowed step.
 *
 * <p>The node-pools stack, applied last, records what each deploy was in two outputs (the IAM stack too, as states
 * written before hold them: {@link DeployedState}). Every stack of the cluster reads them back (a first deploy has
 * nothing to check) and fails the precondition of an output when {@link UpgradeSteps} refuses the move. The verdict for every
 * kind of deployed release is computed here, at synth, into a lookup table: Terraform only looks it up.
 */
public final class StepGuard {
    static final String REFUSALS_LOCAL = "karpenter_upgrade_refusals";
    static final String CHECK_OUTPUT = "karpenter_step_guard";

    private final ClusterConfig config;
    private final String stateDirFromStack;
    /** The same for every stack of the cluster: computed once. */
    private final Map<String, String> refusals;

    private final DeployedState deployed;

    private StepGuard(ClusterConfig config, String stateDirFromStack) {
        this.config = config;
        this.stateDirFromStack = stateDirFromStack;
        this.refusals = refusals(config);
        this.deployed = DeployedState.of(config);
    }

    /**
     * The guard of one cluster's stacks; none with upgrade_override, which names this very version.
     *
     * @param stateDirFromStack the project directory as seen from the stack's working directory (local state)
     */
    public static Optional<StepGuard> of(ClusterConfig config, String stateDirFromStack) {
        return config.upgradeOverride() ? Optional.empty() : Optional.of(new StepGuard(config, stateDirFromStack));
    }

    /** The outputs the next deploy's guard reads back: in the node-pools stack (applied last) and the IAM stack. */
    public static void record(ClusterConfig config, IamStack iam, NodePoolsStack nodePools) {
        DeployedState.record(config, nodePools, iam);
    }

    /** Adds the guard to {@code stack}: an output whose precondition looks the deployed station up in the table. */
    public void attach(ClusterStack stack) {
        stack.local(REFUSALS_LOCAL, refusals);
        DeployedState.Expressions read = deployed.readIn(stack, stateDirFromStack);
        String refusal = "lookup(local." + REFUSALS_LOCAL + ", " + read.station() + ", \"\")";
        stack.output(
                CHECK_OUTPUT,
                config.release().chartVersion(),
                "The chart version this stack is planned for, once the step guard allowed the step",
                "${" + refusal + " == \"\"}",
                "Karpenter ${" + read.version() + "} is deployed (read back from " + deployed.source() + "): ${"
                        + refusal + "}");
    }

    /** For every kind of deployed release the move to this configuration is refused from: why, and what is next. */
    static Map<String, String> refusals(ClusterConfig config) {
        Map<String, String> refusals = new LinkedHashMap<>();
        for (UpgradeStation station : UpgradeSteps.stations()) {
            UpgradeSteps.check(station.representative(), config.apis())
                    .ifPresent(refusal -> refusals.put(
                            station.key(),
                            "karpenter_chart_version " + config.release().chartVersion() + " cannot follow it: "
                                    + refusal.reason() + "; " + refusal.advice()
                                    + " (bin/upgrade-path prints the whole way)"));
        }
        return refusals;
    }
}
