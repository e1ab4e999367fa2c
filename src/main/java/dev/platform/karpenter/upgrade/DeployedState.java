package dev.platform.karpenter.upgrade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hashicorp.cdktf.DataTerraformRemoteStateS3;
import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformRemoteState;
import com.hashicorp.cdktf.TerraformResourceConfig;
import com.hashicorp.cdktf.TerraformStack;
import dev.platform.karpenter.aws.ClusterStack;
import dev.platform.karpenter.backend.StateBackends;
import dev.platform.karpenter.config.ClusterConfig;
import dev.platform.karpenter.config.ConfigException;
import dev.platform.karpenter.config.StateBackendSettings;
import dev.platform.karpenter.config.TerraformStrings;
import dev.platform.karpenter.iam.IamStack;
import dev.platform.karpenter.nodepools.NodePoolsStack;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.upgrade.UpgradeSteps.Deployed;
import imports.aws.provider.AwsProvider;
import imports.aws.provider.AwsProviderConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the stacks were last deployed with, kept in two outputs of the node-pools stack's state (applied last, so a
 * deploy that failed on the way is not recorded as done) and, as states written before it recorded there hold it, of
 * the IAM stack's (applied first): the chart version and its {@link UpgradeStation}. The one place that knows where
 * those states are and what they hold, for both readers: the step guard, which reads them back in Terraform at plan,
 * and bin/upgrade-path, which reads them here. The node-pools record wins; the IAM record serves where it has none.
 */
final class DeployedState {
    /** Outputs of the IAM stack: the deployed chart version, and what the guard needs to know of it. */
    static final String VERSION_OUTPUT = "karpenter_chart_version";

    static final String STATION_OUTPUT = "karpenter_upgrade_station";
    private static final String VERSION = "/" + VERSION_OUTPUT + "/value";
    static final String REMOTE_STATE = "karpenter_deployed_release";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String iamStack;
    private final String nodePoolsStack;
    private final StateBackendSettings backend;
    /** What an adopted installation runs (adopt.chart_version), deployed as far as the guard knows until recorded. */
    private final Optional<Deployed> adopted;

    private DeployedState(
            String iamStack, String nodePoolsStack, StateBackendSettings backend, Optional<Deployed> adopted) {
        this.iamStack = iamStack;
        this.nodePoolsStack = nodePoolsStack;
        this.backend = backend;
        this.adopted = adopted;
    }

    /** The deployed state of {@code config}'s cluster. */
    static DeployedState of(ClusterConfig config) {
        return new DeployedState(
                config.stackName(IamStack.CONCERN),
                config.stackName(NodePoolsStack.CONCERN),
                config.backend(),
                config.adoption().chartVersion().map(DeployedState::adopted));
    }

    /**
     * An adopted release, its pools taken to be declared in the oldest generation it serves: whether a 0.32 or 1.0
     * install still has the previous generation's objects is not known, and assuming so only asks for a retirement
     * that changes nothing.
     */
    private static Deployed adopted(KarpenterRelease release) {
        return new Deployed(release, release.row().served().previous().orElse(release.apiGeneration()));
    }

    /** Where the guard's deployed release comes from, for its message. */
    String source() {
        return "the state of " + nodePoolsStack + ", else " + iamStack
                + adopted.map(a -> ", else adopt.chart_version").orElse("");
    }

    /**
     * Writes this deploy's outputs into the node-pools stack, for the next deploy to read, and into the IAM stack,
     * where states written before the node-pools record existed hold them.
     */
    static void record(ClusterConfig config, ClusterStack... stacks) {
        for (ClusterStack stack : stacks) {
            stack.output(
                    VERSION_OUTPUT,
                    config.release().chartVersion(),
                    "The Karpenter chart version these stacks were last applied with");
            stack.output(
                    STATION_OUTPUT,
                    Deployed.of(config.apis()).station().key(),
                    "What the next deploy's step guard checks: minor, patch level, oldest pool API declared");
        }
    }

    /**
     * Terraform expressions of the two outputs, empty strings where nothing is deployed yet.
     *
     * @param station the station's key
     */
    record Expressions(String station, String version) {}

    /**
     * The outputs as Terraform reads them back in {@code stack}, adding what that takes.
     *
     * @param stateDirFromStack the project directory as seen from the stack's working directory (local state)
     */
    Expressions readIn(TerraformStack stack, String stateDirFromStack) {
        // Both outputs of a state are written together, so the first non-empty version is the chosen station's.
        Expressions last = recordedIn(stack, stateDirFromStack, nodePoolsStack, "last");
        Expressions first = recordedIn(stack, stateDirFromStack, iamStack, "first");
        return adopted.map(deployed -> new Expressions(
                        "coalesce(" + last.station() + ", " + first.station() + ", \""
                                + deployed.station().key() + "\")",
                        "coalesce(" + last.version() + ", " + first.version() + ", \""
                                + deployed.release().chartVersion() + "\")"))
                // coalesce fails where every argument is empty: nothing recorded yet, nothing to check.
                .orElseGet(() -> new Expressions(
                        "try(coalesce(" + last.station() + ", " + first.station() + "), \"\")",
                        "try(coalesce(" + last.version() + ", " + first.version() + "), \"\")"));
    }

    /**
     * The outputs of {@code source}'s state as Terraform reads them in {@code stack}, empty strings where it has none.
     *
     * @param id tells the data sources of the two states in one stack apart
     */
    private Expressions recordedIn(TerraformStack stack, String stateDirFromStack, String source, String id) {
        if (backend.isRemote()) {
            // terraform_remote_state fails on a missing state object, so it is read only once the object is listed.
            String key = StateBackends.stateKey(backend, source);
            AwsProvider stateRegion = stack.getNode().tryFindChild("aws_state") instanceof AwsProvider existing
                    ? existing
                    : new AwsProvider(
                            stack,
                            "aws_state",
                            AwsProviderConfig.builder()
                                    .alias("state")
                                    .region(backend.region())
                                    .build());
            TerraformDataSource objects = new TerraformDataSource(
                    stack,
                    "karpenter_deployed_state_object_" + id,
                    TerraformResourceConfig.builder()
                            .terraformResourceType("aws_s3_objects")
                            .provider(stateRegion)
                            .build());
            objects.addOverride("bucket", backend.bucket().orElseThrow());
            objects.addOverride("prefix", key);
            TerraformRemoteState deployed = DataTerraformRemoteStateS3.Builder.create(stack, REMOTE_STATE + "_" + id)
                    .bucket(backend.bucket().orElseThrow())
                    .key(key)
                    .region(backend.region())
                    .build();
            deployed.addOverride(
                    "count",
                    "${contains(data.aws_s3_objects." + objects.getFriendlyUniqueId() + ".keys, "
                            + TerraformStrings.quoted(key) + ") ? 1 : 0}");
            String outputs = "data.terraform_remote_state." + deployed.getFriendlyUniqueId() + "[0].outputs.";
            return new Expressions(
                    "try(" + outputs + STATION_OUTPUT + ", \"\")", "try(" + outputs + VERSION_OUTPUT + ", \"\")");
        }
        // The state file itself, read by the file function: Terraform creates an empty one when it first locks it,
        // and rewrites it during an apply, neither of which a count over terraform_remote_state survives.
        String path = StateBackends.localStatePath(source, stateDirFromStack);
        // The project's directory may be named anything: quoted, so that no name is read as an expression.
        String file = TerraformStrings.quoted(path);
        String outputs = "jsondecode(file(" + file + ")).outputs.";
        return new Expressions(
                "fileexists(" + file + ") ? try(" + outputs + STATION_OUTPUT + ".value, \"\") : \"\"",
                "fileexists(" + file + ") ? try(" + outputs + VERSION_OUTPUT + ".value, \"\") : \"\"");
    }

    /**
     * The outputs as the local state in {@code projectDir} holds them.
     *
     * @throws ConfigException naming what to pass instead where they cannot be read: S3 state, no state yet, a
     *     state written before the outputs existed
     */
    Deployed read(Path projectDir) {
        if (backend.isRemote()) {
            throw new ConfigException("the state of " + nodePoolsStack + " is in s3://"
                    + backend.bucket().orElseThrow() + "/" + StateBackends.stateKey(backend, nodePoolsStack)
                    + "; pass --from with its output " + VERSION_OUTPUT + " ("
                    + CdktfCli.command("output " + nodePoolsStack) + ")");
        }
        Path last = projectDir
                .resolve(StateBackends.localStatePath(nodePoolsStack, "."))
                .normalize();
        Path first =
                projectDir.resolve(StateBackends.localStatePath(iamStack, ".")).normalize();
        Optional<JsonNode> lastOutputs =
                outputs(last).filter(outputs -> !outputs.at(VERSION).asText("").isEmpty());
        Path state = lastOutputs.isPresent() ? last : first;
        Optional<JsonNode> outputs = lastOutputs.or(() -> outputs(first));
        if (adopted.isPresent()
                && outputs.map(o -> o.at(VERSION).asText("")).orElse("").isEmpty()) {
            return adopted.get();
        }
        JsonNode recorded = outputs.orElseThrow(() -> new ConfigException("no state of " + iamStack + " in "
                + first.getParent()
                + " (nothing deployed yet?): pass --from VERSION, or deploy karpenter_chart_version directly"));
        return deployed(
                state,
                recorded.at(VERSION).asText(""),
                recorded.at("/" + STATION_OUTPUT + "/value").asText(""));
    }

    /** The outputs of a local state file, empty where it cannot be read; an empty file has none yet. */
    private static Optional<JsonNode> outputs(Path state) {
        try {
            return Optional.of(
                    Files.size(state) == 0
                            ? JSON.createObjectNode()
                            : JSON.readTree(state.toFile()).path("outputs"));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Deployed deployed(Path state, String version, String station) {
        if (version.isEmpty()) {
            throw new ConfigException(state + " has no output " + VERSION_OUTPUT
                    + " (deployed by an earlier version of this project): pass --from VERSION");
        }
        KarpenterRelease release = KarpenterRelease.of(version);
        UpgradeStation deployed = UpgradeStation.parse(station)
                .filter(parsed -> parsed.minor() == release.row())
                .orElseThrow(() -> new ConfigException(
                        state + ": its output " + STATION_OUTPUT + " " + ConfigException.quote(station)
                                + " is no station of " + version + "; pass --from VERSION --from-api GENERATION"));
        return new Deployed(release, deployed.oldestDeclared());
    }
}
