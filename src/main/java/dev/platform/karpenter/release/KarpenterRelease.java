package dev.platform.karpenter.release;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One supported Karpenter chart version and everything that differs between Karpenter generations. Stacks ask
 * this record instead of comparing versions themselves, so adding or dropping a release touches this package only.
 *
 * <p>Supported: 0.30.x to 0.31.x (v1alpha5 APIs, as in the seed) and 1.0.x to 1.14.x (v1 APIs). 0.32 to 0.37
 * served the transitional v1beta1 APIs and are rejected.
 */
public record KarpenterRelease(int major, int minor, int patch) {
    public static final String SUPPORTED = "v0.30.x to v0.31.x or 1.0.x to 1.14.x";
    private static final Pattern SEMVER = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

    /** Highest Kubernetes minor each 1.x minor supports (upstream compatibility matrix). */
    private static final Map<Integer, Integer> V1_MAX_KUBERNETES = Map.ofEntries(
            Map.entry(0, 31), Map.entry(1, 31), Map.entry(2, 32), Map.entry(3, 32), Map.entry(4, 32),
            Map.entry(5, 33), Map.entry(6, 34), Map.entry(7, 34), Map.entry(8, 34), Map.entry(9, 35),
            Map.entry(10, 35), Map.entry(11, 35), Map.entry(12, 35), Map.entry(13, 35), Map.entry(14, 36));

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
            String why = release.major == 0 && release.minor >= 32
                    ? " serves the transitional v1beta1 APIs, which this project does not generate"
                    : " is not supported";
            throw new IllegalArgumentException("karpenter_chart_version \"" + chartVersion + "\"" + why + "; supported: " + SUPPORTED);
        }
        return release;
    }

    /** The newest supported minor of each major (v0.31.x, 1.14.x), to suggest a version that fits a cluster. */
    public static List<KarpenterRelease> newestOfEachMajor() {
        return List.of(new KarpenterRelease(0, 31, 0), new KarpenterRelease(1, Collections.max(V1_MAX_KUBERNETES.keySet()), 0));
    }

    private boolean isSupported() {
        return (major == 0 && minor >= 30 && minor <= 31) || (major == 1 && V1_MAX_KUBERNETES.containsKey(minor));
    }

    public ApiGeneration apiGeneration() {
        return major == 0 ? ApiGeneration.V1ALPHA5 : ApiGeneration.V1;
    }

    public boolean isV1() {
        return apiGeneration() == ApiGeneration.V1;
    }

    /** The version as the OCI registry spells it: "v0.30.0" before 0.35, "1.14.1" after. */
    public String chartVersion() {
        return (major == 0 ? "v" : "") + major + "." + minor + "." + patch;
    }

    /** Kubernetes versions this release supports (0.30: 1.23-1.27, 0.31: 1.23-1.28, 1.14: 1.26-1.36). */
    public KubernetesRange supportedKubernetes() {
        if (major == 0) {
            return new KubernetesRange(23, minor == 30 ? 27 : 28);
        }
        return new KubernetesRange(26, V1_MAX_KUBERNETES.get(minor));
    }

    /** The tag Karpenter puts on the instances of a pool, which the controller policy keys on. */
    public String poolTagKey() {
        return apiGeneration().poolLabel();
    }

    /** AWS-managed ECR policy for the node role: 1.x moved to the pull-only policy. */
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

    /** Where this release's chart reads the values the controller stack sets. */
    public HelmValueKeys valueKeys() {
        return isV1() ? HelmValueKeys.V1 : HelmValueKeys.V0;
    }

    /** The minor version with a wildcard patch, as advice is worded: "v0.31.x", "1.14.x". */
    public String minorSeries() {
        return (major == 0 ? "v" : "") + major + "." + minor + ".x";
    }

    /**
     * Whether the controller can take credentials from EKS Pod Identity: that needs an AWS SDK from November 2023
     * or later, which 0.30 and 0.31 predate.
     */
    public boolean supportsPodIdentity() {
        return isV1();
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
