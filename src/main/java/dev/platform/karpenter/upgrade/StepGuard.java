package dev.platform.karpenter.upgrade;

import com.hashicorp.cdktf.DataTerraformRemoteStateS3;
import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformLocal;
import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformRemoteState;
import com.hashicorp.cdktf.TerraformResourceConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.backend.StateBackends;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.StateBackendSettings;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.versions.UpgradeStation;
import dev.platform.karpenter.versions.UpgradeSteps;
import dev.platform.karpenter.versions.UpgradeSteps.Deployed;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Refuses, at plan and before anything is applied, a deploy that upstream does not allow after the one before
 * (v0.30 straight to 1.x, 1.0 from an older 0.33 patch, 1.1 with pools still declared as v1beta1...), naming the
 * next allowed step.
 *
 * <p>The IAM stack, applied first, records what each deploy was in two outputs. Every stack of the cluster reads
 * them back from that stack's state (a first deploy has nothing to check) and fails the precondition of an output
 * when {@link UpgradeSteps} refuses the move. The verdict for every
 * kind of deployed release is computed here, at synth, into a lookup table: Terraform only looks it up.
 */
public final class StepGuard {
    /** Outputs of the IAM stack: the deployed chart version, and what the guard needs to know of it. */
    public static final String VERSION_OUTPUT = "karpenter_chart_version";

    public static final String STATION_OUTPUT = "karpenter_upgrade_station";
    static final String REFUSALS_LOCAL = "karpenter_upgrade_refusals";
    static final String DEPLOYED_STATE = "karpenter_deployed_release";
    static final String CHECK_OUTPUT = "karpenter_step_guard";

    private StepGuard() {}

    /** The outputs the next deploy's guard reads back; in the IAM stack, the first one applied. */
    public static void record(IamStack iam, ClusterConfig config) {
        TerraformOutput.Builder.create(iam, VERSION_OUTPUT)
                .value(config.release().chartVersion())
                .description("The Karpenter chart version these stacks were last applied with")
                .build();
        TerraformOutput.Builder.create(iam, STATION_OUTPUT)
                .value(Deployed.of(config.apis()).station().key())
                .description("What the next deploy's step guard checks: minor, patch level, oldest pool API declared")
                .build();
    }

    /**
     * Adds the guard to {@code stack}: an output whose precondition looks the deployed station up in the table.
     * None with upgrade_override, which names this very version.
     *
     * @param stateDirFromStack the project directory as seen from the stack's working directory (local state)
     */
    public static void attach(TerraformStack stack, ClusterConfig config, String stateDirFromStack) {
        if (config.upgradeOverride()) {
            return;
        }
        new TerraformLocal(stack, REFUSALS_LOCAL, refusals(config));
        String iamStack = config.stackName(IamStack.CONCERN);
        StateBackendSettings backend = config.backend();
        String station;
        String version;
        if (backend.isRemote()) {
            // terraform_remote_state fails on a missing state object, so it is read only once the object is listed.
            String key = StateBackends.stateKey(backend, iamStack);
            AwsProvider stateRegion = new AwsProvider(
                    stack,
                    "aws_state",
                    AwsProviderConfig.builder()
                            .alias("state")
                            .region(backend.region())
                            .build());
            TerraformDataSource objects = new TerraformDataSource(
                    stack,
                    "karpenter_deployed_state_object",
                    TerraformResourceConfig.builder()
                            .terraformResourceType("aws_s3_objects")
                            .provider(stateRegion)
                            .build());
            objects.addOverride("bucket", backend.bucket().orElseThrow());
            objects.addOverride("prefix", key);
            TerraformRemoteState deployed = DataTerraformRemoteStateS3.Builder.create(stack, DEPLOYED_STATE)
                    .bucket(backend.bucket().orElseThrow())
                    .key(key)
                    .region(backend.region())
                    .build();
            deployed.addOverride(
                    "count",
                    "${contains(data.aws_s3_objects." + objects.getFriendlyUniqueId() + ".keys, \"" + key
                            + "\") ? 1 : 0}");
            String outputs = "data.terraform_remote_state." + deployed.getFriendlyUniqueId() + "[0].outputs.";
            station = "try(" + outputs + STATION_OUTPUT + ", \"\")";
            version = "try(" + outputs + VERSION_OUTPUT + ", \"\")";
        } else {
            // The state file itself, read by the file function: Terraform creates an empty one when it first locks
            // it, and rewrites it during an apply, neither of which a count over terraform_remote_state survives.
            String path = StateBackends.localStatePath(iamStack, stateDirFromStack);
            String outputs = "jsondecode(file(\"" + path + "\")).outputs.";
            station = "fileexists(\"" + path + "\") ? try(" + outputs + STATION_OUTPUT + ".value, \"\") : \"\"";
            version = "fileexists(\"" + path + "\") ? try(" + outputs + VERSION_OUTPUT + ".value, \"\") : \"\"";
        }
        String refusal = "lookup(local." + REFUSALS_LOCAL + ", " + station + ", \"\")";
        TerraformOutput check = TerraformOutput.Builder.create(stack, CHECK_OUTPUT)
                .value(config.release().chartVersion())
                .description("The chart version this stack is planned for, once the step guard allowed the step")
                .build();
        // cdktf 0.19 leaves an output's precondition out of the JSON, hence the override.
        check.addOverride(
                "precondition",
                Map.of(
                        "condition", "${" + refusal + " == \"\"}",
                        "error_message",
                                "Karpenter ${" + version + "} is deployed (read back from the state of " + iamStack
                                        + "): ${" + refusal + "}"));
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
