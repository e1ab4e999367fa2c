package dev.platform.karpenter.config;

import static dev.platform.karpenter.config.SettingsCatalogue.BESIDE_AUTO_MODE;
import static dev.platform.karpenter.config.SettingsCatalogue.CLUSTER_NAME;
import static dev.platform.karpenter.config.SettingsCatalogue.KARPENTER_CHART_VERSION;
import static dev.platform.karpenter.config.SettingsCatalogue.KARPENTER_NAMESPACE;
import static dev.platform.karpenter.config.SettingsCatalogue.KARPENTER_SERVICE_ACCOUNT;
import static dev.platform.karpenter.config.SettingsCatalogue.REGION;
import static dev.platform.karpenter.config.SettingsCatalogue.RETIRED_API;
import static dev.platform.karpenter.config.SettingsCatalogue.TAGS;
import static dev.platform.karpenter.config.SettingsCatalogue.UPGRADE_OVERRIDE;

import dev.platform.karpenter.release.AddOnKind;
import dev.platform.karpenter.release.DeclaredApis;
import dev.platform.karpenter.release.HelmValueKeys;
import dev.platform.karpenter.release.KarpenterRelease;
import dev.platform.karpenter.release.ValuePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Everything the stacks of one cluster need, validated once. Stacks receive this record and never read files or
 * the environment themselves.
 *
 * @param clusterName  cluster_name: the existing EKS cluster (required)
 * @param region       region: its AWS region (required)
 * @param release      karpenter_chart_version (required), with all version-specific knowledge
 * @param namespace    karpenter_namespace: where the controller runs (default "karpenter")
 * @param serviceAccount karpenter_service_account: the controller's service account (default "karpenter")
 * @param tags         tags: added to every taggable AWS resource, and to what Karpenter launches
 * @param apis         the release with retired_api: the API generations the pools are declared in
 * @param upgradeOverride upgrade_override names karpenter_chart_version: its deploy skips the step guard and the
 *                     Kubernetes range check (a cluster outside the step's range, or a fresh install over kept IAM)
 * @param adoption     adopt: resources another tool made that the stacks import instead of creating
 * @param besideAutoMode beside_auto_mode: the cluster may run EKS Auto Mode (a deliberate migration to it); otherwise
 *                     every stack's plan stops on an Auto Mode cluster, which runs AWS's own Karpenter
 */
public record ClusterConfig(
        String clusterName,
        String region,
        KarpenterRelease release,
        String namespace,
        String serviceAccount,
        Map<String, String> tags,
        IamSettings iam,
        InterruptionSettings interruption,
        ControllerSettings controller,
        PoolsAndNodeClasses poolsAndClasses,
        StateBackendSettings backend,
        DeclaredApis apis,
        boolean upgradeOverride,
        boolean besideAutoMode,
        Adoption adoption) {

    /** EKS cluster names: 1-100 characters, starting with a letter or digit. */
    private static final Pattern EKS_CLUSTER_NAME = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]*");

    /** Builds and validates the configuration; every problem is a one-line {@link ConfigException}. */
    public static ClusterConfig from(SettingsReader settings) {
        String clusterName = settings.required(CLUSTER_NAME);
        ConfigException.requireMatch(
                EKS_CLUSTER_NAME,
                100,
                CLUSTER_NAME.key(),
                "must be an EKS cluster name (1 to 100 letters, digits, '-' or '_', starting with a letter or digit)",
                clusterName);
        String region = settings.required(REGION);
        Regions.requireValid(REGION.key(), region);
        String chartVersion = settings.required(KARPENTER_CHART_VERSION);
        KarpenterRelease release;
        try {
            release = KarpenterRelease.of(chartVersion);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        Optional<String> retiredApi = settings.optional(RETIRED_API);
        if (retiredApi.isPresent()) {
            RETIRED_API.requireApplies(DeclaredApis.keeping(release), "remove retired_api");
        }
        DeclaredApis apis;
        try {
            apis = DeclaredApis.from(release, retiredApi);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        boolean upgradeOverride = upgradeOverride(settings, release);
        boolean besideAutoMode = besideAutoMode(settings, release);
        String namespace = dnsLabel(settings, KARPENTER_NAMESPACE);
        String serviceAccount = dnsLabel(settings, KARPENTER_SERVICE_ACCOUNT);
        Map<String, String> tags = AwsRules.requireTags(TAGS.key(), settings.get(TAGS));
        IamSettings iam = IamSettings.from(settings, apis);
        InterruptionSettings interruption = InterruptionSettings.from(settings, clusterName, region);
        PoolsAndNodeClasses poolsAndClasses = PoolsAndNodeClasses.from(settings, clusterName, apis, tags);
        ClusterConfig config = new ClusterConfig(
                clusterName,
                region,
                release,
                namespace,
                serviceAccount,
                tags,
                iam,
                interruption,
                ControllerSettings.from(settings, release, region),
                poolsAndClasses,
                StateBackendSettings.from(settings, region),
                apis,
                upgradeOverride,
                besideAutoMode,
                Adoption.from(
                        settings,
                        new Adoption.Context(
                                release, apis, iam, interruption.queueName(), namespace, poolsAndClasses)));
        config.names().requireWithinAwsLimits();
        config.iam().nodeRoleArn().ifPresent(arn -> Regions.requireArnInPartition("iam_role_arn", arn, region));
        config.interruption()
                .kmsKeyId()
                .ifPresent(key -> Regions.requireArnInPartition("queue_kms_key_id", key, region));
        return config;
    }

    /**
     * Whether the controller's values turn on the ReservedCapacity feature gate: a pool may launch into capacity
     * reservations ({@code anyPoolAllowsReserved}, read from the rendered pools), the release has the gate but off by
     * default, and controller_values does not set it (the user's word stands, as everywhere in controller_values).
     */
    public boolean turnsOnReservedCapacity(boolean anyPoolAllowsReserved) {
        return release.hasCapacityReservations()
                && !release.reservedCapacityOnByDefault()
                && anyPoolAllowsReserved
                && !HelmValueKeys.RESERVED_CAPACITY_GATE.isSetIn(controller.chartValues());
    }

    /**
     * The feature gates the controller's values turn on: those of the add-on kinds with objects declared (which the
     * release must serve) that controller_values does not set (the user's word stands).
     */
    public List<ValuePath> gatesTurnedOn() {
        return AddOnKind.values().stream()
                .filter(kind -> !poolsAndClasses.addOns(kind).isEmpty())
                .map(AddOnKind::gate)
                .filter(gate -> !gate.isSetIn(controller.chartValues()))
                .toList();
    }

    /** Names of the AWS resources made for this cluster, derived in one place. */
    public ResourceNames names() {
        return new ResourceNames(this);
    }

    /** The cdktf stack name of one concern, e.g. "demo-iam". */
    public String stackName(String concern) {
        return clusterName + "-" + concern;
    }

    /** Only for the very version it names, so a forgotten override cannot waive the checks of a later step. */
    private static boolean upgradeOverride(SettingsReader settings, KarpenterRelease release) {
        Optional<String> named = settings.optional(UPGRADE_OVERRIDE);
        if (named.isEmpty()) {
            return false;
        }
        boolean same = namesRelease(named.get(), release);
        ConfigException.require(
                same,
                () -> "upgrade_override " + ConfigException.quote(named.get())
                        + " must name karpenter_chart_version (\""
                        + release.chartVersion() + "\"): it waives the step guard and the Kubernetes range check for"
                        + " that one deploy; remove it afterwards");
        return true;
    }

    private static boolean namesRelease(String chartVersion, KarpenterRelease release) {
        try {
            return KarpenterRelease.of(chartVersion).equals(release);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Only for a Karpenter that can run beside Auto Mode: AWS's migration needs 1.1 or later. */
    private static boolean besideAutoMode(SettingsReader settings, KarpenterRelease release) {
        boolean beside = settings.get(BESIDE_AUTO_MODE);
        ConfigException.require(
                !beside || release.runsBesideAutoMode(),
                () -> "beside_auto_mode = true needs a Karpenter that can run beside EKS Auto Mode"
                        + " (AWS's migration to Auto Mode starts from 1.1 or later), but karpenter_chart_version is \""
                        + release.chartVersion() + "\": allowed " + KarpenterRelease.releasesBesideAutoMode());
        return beside;
    }

    private static String dnsLabel(SettingsReader settings, Setting<String> setting) {
        return Kubernetes.requireDnsLabel(setting.key(), settings.get(setting));
    }
}
