package dev.platform.karpenter.release;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One supported Karpenter chart version and everything that differs between Karpenter releases, read from its row of
 * the release table ({@link KarpenterMinor}). Stacks ask this record instead of comparing versions themselves, so
 * adding or dropping a release touches this package only.
 */
public record KarpenterRelease(int major, int minor, int patch) {
    /** The supported releases as messages name them: "v0.30.x to 0.37.x or 1.0.x to 1.10.x". */
    public static final String SUPPORTED = supportedSpans();

    private static final Pattern SEMVER = Pattern.compile("v?(\\d+)\\.(\\d+)\\.(\\d+)");

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

    /** The newest patch of the newest supported minor: the default target of the upgrade path. */
    public static KarpenterRelease newest() {
        return KarpenterMinor.newest().newestRelease();
    }

    boolean isSupported() {
        return KarpenterMinor.of(major, minor).isPresent();
    }

    /** The release's row of the release table. */
    public KarpenterMinor row() {
        return KarpenterMinor.of(major, minor)
                .orElseThrow(() -> new IllegalStateException("Karpenter " + this + " is not in the release table"));
    }

    /** Whether this release has {@code feature} (also answered for releases outside the table). */
    public boolean has(KarpenterMinor.Feature feature) {
        return feature.in(major, minor);
    }

    /** The API generation of the pools this release serves as its own (0.32 still serves v1alpha5 beside it). */
    public ApiGeneration apiGeneration() {
        return row().served().own();
    }

    public boolean isV1() {
        return apiGeneration() == ApiGeneration.V1;
    }

    /** The version as the OCI registry spells it: "v0.30.0" and "v0.34.13" before 0.35, "0.35.12" and "1.10.2" after. */
    public String chartVersion() {
        return prefix() + major + "." + minor + "." + patch;
    }

    private String prefix() {
        return has(KarpenterMinor.Feature.CHART_VERSION_WITHOUT_V) ? "" : "v";
    }

    /**
     * Kubernetes versions this release supports, exactly as upstream's matrix says (0.30: 1.23-1.27, 1.0.0-1.0.4:
     * 1.25-1.30, 1.0.5 and later: 1.25-1.31), for every release the matrix lists.
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
        return has(KarpenterMinor.Feature.CONVERSION_WEBHOOKS)
                ? Optional.of(ValuePath.of("webhook", "serviceNamespace"))
                : Optional.empty();
    }

    /** Where the karpenter-crd chart takes annotations for its CRDs (1.2 on); empty where it takes none. */
    public Optional<ValuePath> crdAnnotations() {
        return has(KarpenterMinor.Feature.CRD_ANNOTATIONS)
                ? Optional.of(ValuePath.of("additionalAnnotations"))
                : Optional.empty();
    }

    /** AWS-managed ECR policy for the node role: 1.x moved to the pull-only policy (0.x templates: read-only). */
    public String nodeEcrPolicyName() {
        return has(KarpenterMinor.Feature.ECR_PULL_ONLY)
                ? "AmazonEC2ContainerRegistryPullOnly"
                : "AmazonEC2ContainerRegistryReadOnly";
    }

    /**
     * Whether the chart needs an instance profile made for it: 0.30 and 0.31 read settings.aws.defaultInstanceProfile,
     * later releases make profiles themselves from the node class's role.
     */
    public boolean needsInstanceProfile() {
        return valueKeys().defaultInstanceProfile().isPresent();
    }

    /** Where this release's chart reads the values the controller stack sets (0.32 moved them to settings.*). */
    public HelmValueKeys valueKeys() {
        return has(KarpenterMinor.Feature.INSTANCE_PROFILES_FROM_ROLE) ? HelmValueKeys.V1 : HelmValueKeys.V0;
    }

    /** The minor version with a wildcard patch, as advice is worded: "v0.31.x", "1.10.x". */
    public String minorSeries() {
        return prefix() + major + "." + minor + ".x";
    }

    /** Whether the controller can take credentials from EKS Pod Identity. */
    public boolean supportsPodIdentity() {
        return has(KarpenterMinor.Feature.POD_IDENTITY);
    }

    /** Whether this Karpenter may run beside EKS Auto Mode during a migration to it (AWS: 1.1 or later). */
    public boolean runsBesideAutoMode() {
        return has(KarpenterMinor.Feature.RUNS_BESIDE_AUTO_MODE);
    }

    /** The chart versions that {@link #runsBesideAutoMode}, as advice names them: "1.1.x to 1.10.x". */
    public static String releasesBesideAutoMode() {
        return KarpenterMinor.Feature.RUNS_BESIDE_AUTO_MODE.introducedBy().series() + " to "
                + KarpenterMinor.newest().series();
    }

    /** Whether pools may launch into on-demand capacity reservations (capacity type "reserved"). */
    public boolean hasCapacityReservations() {
        return has(KarpenterMinor.Feature.CAPACITY_RESERVATIONS);
    }

    /**
     * Whether the chart's ReservedCapacity feature gate is on unless turned off; where it is off, a pool launching
     * into capacity reservations needs it turned on.
     */
    public boolean reservedCapacityOnByDefault() {
        return has(KarpenterMinor.Feature.RESERVED_CAPACITY_BY_DEFAULT);
    }

    /** Karpenter 1.10 added handling of capacity reservation interruption warnings. */
    public boolean handlesCapacityReservationInterruptions() {
        return has(KarpenterMinor.Feature.CAPACITY_RESERVATION_INTERRUPTIONS);
    }

    /** Runs of consecutive supported minors of one major, as messages name them. */
    private static String supportedSpans() {
        List<String> spans = new ArrayList<>();
        KarpenterMinor first = null;
        KarpenterMinor last = null;
        for (KarpenterMinor row : KarpenterMinor.all()) {
            if (first != null && (row.major() != last.major() || row.minor() != last.minor() + 1)) {
                spans.add(first.series() + " to " + last.series());
                first = null;
            }
            first = first == null ? row : first;
            last = row;
        }
        spans.add(first.series() + " to " + last.series());
        return String.join(" or ", spans);
    }

    @Override
    public String toString() {
        return chartVersion();
    }
}
