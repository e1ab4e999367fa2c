package dev.platform.karpenter.versions;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One supported Karpenter chart version and everything that differs between Karpenter generations. Stacks ask
 * this record instead of comparing versions themselves, so adding or dropping a release touches this package only.
 *
 * <p>Supported: 0.30.x to 0.31.x (v1alpha5 APIs, as in the seed), 0.32.x to 0.37.x (v1beta1 APIs, the way from
 * the seed to 1.x) and 1.0.x to 1.14.x (v1 APIs).
 */
public record KarpenterRelease(int major, int minor, int patch) {
    public static final String SUPPORTED = "v0.30.x to 0.37.x or 1.0.x to 1.14.x";
    static final int FIRST_V1BETA1_MINOR = 32;
    static final int LAST_V1BETA1_MINOR = 37;
    /** The registry spells chart versions with a leading "v" up to 0.34. */
    private static final int FIRST_MINOR_WITHOUT_V = 35;

    private static final Pattern SEMVER = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

    /** The newest 1.x minor this project generates for. */
    private static final int NEWEST_V1_MINOR = 14;

    /** The first 1.x minor AWS lets run beside EKS Auto Mode during a migration to it. */
    private static final int FIRST_MINOR_BESIDE_AUTO_MODE = 1;

    /**
     * Parses a chart version as written in tfvars. A missing or extra leading "v" is accepted and normalized to
     * the registry's spelling, since the registry would otherwise answer "not found" at apply time.
     *
     * @throws IllegalArgumentException with a one-line message naming karpenter_chart_version and what is supported
     */
    public static KarpenterRelease of(String chartVersion) {
        Matcher m = SEMVER.matcher(chartVersion.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("karpenter_chart_version \"" + chartVersion
                    + "\" is not a release version (MAJOR.MINOR.PATCH); supported: " + SUPPORTED);
        }
        KarpenterRelease release = new KarpenterRelease(
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        if (!release.isSupported()) {
            throw new IllegalArgumentException(
                    "karpenter_chart_version \"" + chartVersion + "\" is not supported; supported: " + SUPPORTED);
        }
        return release;
    }

    /** The newest supported minor of each major (v0.31.x, 1.14.x), to suggest a version that fits a cluster. */
    public static List<KarpenterRelease> newestOfEachMajor() {
        return List.of(new KarpenterRelease(0, 31, 0), new KarpenterRelease(1, NEWEST_V1_MINOR, 0));
    }

    boolean isSupported() {
        return (major == 0 && minor >= 30 && minor <= LAST_V1BETA1_MINOR)
                || (major == 1 && minor >= 0 && minor <= NEWEST_V1_MINOR);
    }

    /** The API generation of the pools this release serves as its own (0.32 still serves v1alpha5 beside it). */
    public ApiGeneration apiGeneration() {
        if (major == 1) {
            return ApiGeneration.V1;
        }
        return minor >= FIRST_V1BETA1_MINOR ? ApiGeneration.V1BETA1 : ApiGeneration.V1ALPHA5;
    }

    public boolean isV1() {
        return apiGeneration() == ApiGeneration.V1;
    }

    /** The version as the OCI registry spells it: "v0.30.0" and "v0.34.13" before 0.35, "0.35.12" and "1.14.1" after. */
    public String chartVersion() {
        return prefix() + major + "." + minor + "." + patch;
    }

    private String prefix() {
        return major == 0 && minor < FIRST_MINOR_WITHOUT_V ? "v" : "";
    }

    /**
     * Kubernetes versions this release supports, exactly as upstream's matrix says (0.30: 1.23-1.27, 1.0.0-1.0.4:
     * 1.25-1.30, 1.0.5 and later: 1.25-1.31, 1.14: 1.26-1.36), for every release the matrix lists.
     */
    public KubernetesRange supportedKubernetes() {
        return KubernetesSupport.of(major, minor, patch)
                .orElseThrow(() -> new IllegalStateException(
                        "upstream's support matrix has no row for Karpenter " + chartVersion()));
    }

    /**
     * Where the karpenter-crd chart reads the namespace of the controller's conversion webhook service: set for the
     * 1.0 series, which serves conversion webhooks, because 1.0.0's chart defaults it to kube-system (1.0.1 onwards to
     * the release's namespace); the CRDs would otherwise point at a service that does not exist.
     */
    public Optional<ValuePath> crdWebhookNamespace() {
        return major == 1 && minor == 0 ? Optional.of(ValuePath.of("webhook", "serviceNamespace")) : Optional.empty();
    }

    /** AWS-managed ECR policy for the node role: 1.x moved to the pull-only policy (0.x templates: read-only). */
    public String nodeEcrPolicyName() {
        return isV1() ? "AmazonEC2ContainerRegistryPullOnly" : "AmazonEC2ContainerRegistryReadOnly";
    }

    /**
     * Whether the chart needs an instance profile made for it: 0.x reads settings.aws.defaultInstanceProfile,
     * 1.x creates profiles itself from EC2NodeClass.spec.role.
     */
    public boolean needsInstanceProfile() {
        return valueKeys().defaultInstanceProfile().isPresent();
    }

    /** Where this release's chart reads the values the controller stack sets (0.32 moved them to settings.*). */
    public HelmValueKeys valueKeys() {
        return apiGeneration() == ApiGeneration.V1ALPHA5 ? HelmValueKeys.V0 : HelmValueKeys.V1;
    }

    /** The minor version with a wildcard patch, as advice is worded: "v0.31.x", "1.14.x". */
    public String minorSeries() {
        return prefix() + major + "." + minor + ".x";
    }

    /**
     * Whether the controller can take credentials from EKS Pod Identity: that needs an AWS SDK from November 2023
     * or later, which 0.30 and 0.31 predate.
     */
    public boolean supportsPodIdentity() {
        return isV1();
    }

    /**
     * Whether this Karpenter can run beside EKS Auto Mode while workloads move to it: AWS's "Migrate from Karpenter
     * to EKS Auto Mode" requires Karpenter 1.1 or later on the cluster (Auto Mode's NodePools and NodeClaims share
     * the karpenter.sh v1 CRDs with it).
     */
    public boolean runsBesideAutoMode() {
        return isV1() && minor >= FIRST_MINOR_BESIDE_AUTO_MODE;
    }

    /** The chart versions that {@link #runsBesideAutoMode}, as advice names them: "1.1.x to 1.14.x". */
    public static String releasesBesideAutoMode() {
        return new KarpenterRelease(1, FIRST_MINOR_BESIDE_AUTO_MODE, 0).minorSeries() + " to "
                + new KarpenterRelease(1, NEWEST_V1_MINOR, 0).minorSeries();
    }

    /** Karpenter 1.10 added handling of capacity reservation interruption warnings. */
    public boolean handlesCapacityReservationInterruptions() {
        return isV1() && minor >= 10;
    }

    @Override
    public String toString() {
        return chartVersion();
    }
}
