package dev.platform.karpenter.release;

import static dev.platform.karpenter.release.KarpenterMinor.Feature.AL2023;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.CAPACITY_RESERVATIONS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.CAPACITY_RESERVATION_INTERRUPTIONS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.CHART_VERSION_WITHOUT_V;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.CONVERSION_WEBHOOKS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.CRD_ANNOTATIONS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.DISRUPTION_BUDGETS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.ECR_PULL_ONLY;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.INSTANCE_PROFILES_FROM_ROLE;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.NODE_OVERLAYS;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.POD_IDENTITY;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.RESERVED_CAPACITY_BY_DEFAULT;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.RUNS_BESIDE_AUTO_MODE;
import static dev.platform.karpenter.release.KarpenterMinor.Feature.WINDOWS_2025;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The release table: every Karpenter minor this project supports, oldest first, one row each. Everything that
 * depends on the release is derived from these rows (what is supported, the newest release, the upgrade path and its
 * stations, the README's Versions table); the Kubernetes range of each is upstream's support matrix, derived into
 * the table beside this class ({@link KubernetesSupport}). Adding a minor is adding its row and deriving its facts
 * (docs/contributing/adding-a-release.md).
 */
public enum KarpenterMinor {
    // spotless:off
    //      major minor newest  step patch       APIs served                         controller policy                 features that start here
    V0_30(  0,    30,   0,      Step.NONE,       ServedApis.V1ALPHA5,                PolicyGeneration.V1ALPHA5),
    V0_31(  0,    31,   5,      Step.from(4),    ServedApis.V1ALPHA5,                PolicyGeneration.V1ALPHA5),
    V0_32(  0,    32,   10,     Step.ANY_PATCH,  ServedApis.V1BETA1_BESIDE_V1ALPHA5, PolicyGeneration.V1BETA1_BRIDGE,  INSTANCE_PROFILES_FROM_ROLE),
    V0_33(  0,    33,   12,     Step.from(12),   ServedApis.V1BETA1,                 PolicyGeneration.V1BETA1,         POD_IDENTITY),
    V0_34(  0,    34,   13,     Step.from(13),   ServedApis.V1BETA1,                 PolicyGeneration.V1BETA1,         DISRUPTION_BUDGETS),
    V0_35(  0,    35,   12,     Step.from(12),   ServedApis.V1BETA1,                 PolicyGeneration.V1BETA1,         AL2023, CHART_VERSION_WITHOUT_V),
    V0_36(  0,    36,   9,      Step.from(9),    ServedApis.V1BETA1,                 PolicyGeneration.V1BETA1),
    V0_37(  0,    37,   8,      Step.from(7),    ServedApis.V1BETA1,                 PolicyGeneration.V1BETA1),
    V1_0(   1,    0,    14,     Step.from(6),    ServedApis.V1_BESIDE_V1BETA1,       PolicyGeneration.V1,              ECR_PULL_ONLY, CONVERSION_WEBHOOKS),
    V1_1(   1,    1,    10,     Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              RUNS_BESIDE_AUTO_MODE),
    V1_2(   1,    2,    8,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              CRD_ANNOTATIONS),
    V1_3(   1,    3,    8,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              CAPACITY_RESERVATIONS),
    V1_4(   1,    4,    4,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_5(   1,    5,    8,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_6(   1,    6,    8,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              RESERVED_CAPACITY_BY_DEFAULT),
    V1_7(   1,    7,    6,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              NODE_OVERLAYS),
    V1_8(   1,    8,    8,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_9(   1,    9,    2,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              WINDOWS_2025),
    V1_10(  1,    10,   2,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1,              CAPACITY_RESERVATION_INTERRUPTIONS),
    V1_11(  1,    11,   3,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_12(  1,    12,   2,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_13(  1,    13,   1,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1),
    V1_14(  1,    14,   1,      Step.ANY_PATCH,  ServedApis.V1,                      PolicyGeneration.V1);
    // spotless:on

    /** What a release supports from the minor that introduces it on (or, {@link #thisMinorOnly}, at that minor). */
    public enum Feature {
        /**
         * The chart reads settings.clusterName, .clusterEndpoint and .interruptionQueue (no longer settings.aws.*),
         * and Karpenter makes each node's instance profile from the node class's role: no profile is made for it.
         */
        INSTANCE_PROFILES_FROM_ROLE(false),
        /**
         * NodePool spec.disruption.budgets: how many nodes may be disrupted at once, scheduled in UTC cron; one budget
         * of 10% where none is written (the CRD's default). v1beta1 budgets cover every disruption, v1 ones name
         * reasons (Drifted, Underutilized, Empty). Before, one disruption command at a time.
         */
        DISRUPTION_BUDGETS(false),
        /** The node class accepts amiFamily AL2023 (upstream #5604). */
        AL2023(false),
        /** The registry spells the chart version without a leading "v" ("0.35.12", not "v0.35.12"). */
        CHART_VERSION_WITHOUT_V(false),
        /**
         * The controller may take its credentials from EKS Pod Identity: an AWS SDK from November 2023 or later, and
         * upstream's getting-started guide creates a Pod Identity association from 0.33 on (upstream #5259).
         */
        POD_IDENTITY(false),
        /** Nodes pull images with the AWS-managed AmazonEC2ContainerRegistryPullOnly policy (was ReadOnly). */
        ECR_PULL_ONLY(false),
        /**
         * The CRDs convert between v1beta1 and v1 through the controller's webhooks, whose service namespace the
         * karpenter-crd chart reads (1.0.0's chart defaults it to kube-system).
         */
        CONVERSION_WEBHOOKS(true),
        /**
         * Karpenter may run beside EKS Auto Mode while workloads move to it: AWS's "Migrate from Karpenter to EKS
         * Auto Mode" requires Karpenter 1.1 or later on the cluster (Auto Mode shares the karpenter.sh v1 CRDs).
         */
        RUNS_BESIDE_AUTO_MODE(false),
        /** The karpenter-crd chart puts its value additionalAnnotations on every CRD. */
        CRD_ANNOTATIONS(false),
        /**
         * On-demand capacity reservations (upstream #7726): the capacity type "reserved", EC2NodeClass
         * spec.capacityReservationSelectorTerms, behind the ReservedCapacity feature gate (chart value
         * settings.featureGates.reservedCapacity), and the controller's ec2:DescribeCapacityReservations and
         * RunInstances on capacity-reservation/* (the getting-started template from 1.3.0 on).
         */
        CAPACITY_RESERVATIONS(false),
        /** The ReservedCapacity feature gate is beta and on by default (alpha and off from 1.3 to 1.5). */
        RESERVED_CAPACITY_BY_DEFAULT(false),
        /** Interruption handling of EC2 capacity reservation interruption warnings. */
        CAPACITY_RESERVATION_INTERRUPTIONS(false),
        /**
         * NodeOverlay (karpenter.sh/v1alpha1): prices and extended resources Karpenter assumes for the instance
         * types an overlay's requirements select, behind the NodeOverlay feature gate (chart value
         * settings.featureGates.nodeOverlay, alpha and off by default).
         */
        NODE_OVERLAYS(false),
        /** The node class accepts amiFamily Windows2025 and the alias windows2025@latest (the 1.9 CRD's enum). */
        WINDOWS_2025(false);

        private final boolean thisMinorOnly;

        Feature(boolean thisMinorOnly) {
            this.thisMinorOnly = thisMinorOnly;
        }

        /** The row that introduces the feature. */
        public KarpenterMinor introducedBy() {
            return Introductions.ROWS.get(this);
        }

        /** Whether a release of {@code major.minor}, supported or not, has the feature. */
        boolean in(int major, int minor) {
            KarpenterMinor first = introducedBy();
            int order = Integer.compare(major, first.major) != 0
                    ? Integer.compare(major, first.major)
                    : Integer.compare(minor, first.minor);
            return thisMinorOnly ? order == 0 : order >= 0;
        }
    }

    /**
     * From which patch on a release of the minor may take the next stage of the upgrade path (and be the target of
     * a rollback from it): a patch, every patch, or none (a minor the path passes through another of its stage).
     */
    public record Step(OptionalInt fromPatch, boolean any) {
        public static final Step ANY_PATCH = new Step(OptionalInt.empty(), true);
        public static final Step NONE = new Step(OptionalInt.empty(), false);

        public static Step from(int patch) {
            return new Step(OptionalInt.of(patch), false);
        }

        public boolean allows(int patch) {
            return any || (fromPatch.isPresent() && patch >= fromPatch.getAsInt());
        }
    }

    /** Which row introduces each feature, looked up once the table is built. */
    private static final class Introductions {
        static final Map<Feature, KarpenterMinor> ROWS = introductions();

        private static Map<Feature, KarpenterMinor> introductions() {
            Map<Feature, KarpenterMinor> rows = new EnumMap<>(Feature.class);
            for (KarpenterMinor row : ALL) {
                for (Feature feature : row.introduces) {
                    if (rows.putIfAbsent(feature, row) != null) {
                        throw new IllegalStateException(feature + " is introduced twice in the release table");
                    }
                }
            }
            for (Feature feature : Feature.values()) {
                if (!rows.containsKey(feature)) {
                    throw new IllegalStateException("no row of the release table introduces " + feature);
                }
            }
            return rows;
        }
    }

    private static final List<KarpenterMinor> ALL = List.of(values());

    private final int major;
    private final int minor;
    private final int newestPatch;
    private final Step step;
    private final ServedApis served;
    private final PolicyGeneration policy;
    private final Set<Feature> introduces;

    KarpenterMinor(
            int major,
            int minor,
            int newestPatch,
            Step step,
            ServedApis served,
            PolicyGeneration policy,
            Feature... introduces) {
        this.major = major;
        this.minor = minor;
        this.newestPatch = newestPatch;
        this.step = step;
        this.served = served;
        this.policy = policy;
        this.introduces = Set.of(introduces);
    }

    /** The row of {@code major.minor}, empty for a minor this project does not support. */
    public static Optional<KarpenterMinor> of(int major, int minor) {
        for (KarpenterMinor row : ALL) {
            if (row.major == major && row.minor == minor) {
                return Optional.of(row);
            }
        }
        return Optional.empty();
    }

    /** Every row, oldest first. */
    public static List<KarpenterMinor> all() {
        return ALL;
    }

    /** The newest supported minor. */
    public static KarpenterMinor newest() {
        return ALL.get(ALL.size() - 1);
    }

    public int major() {
        return major;
    }

    public int minor() {
        return minor;
    }

    /** The newest patch of the minor: the release the upgrade path and advice name. */
    public KarpenterRelease newestRelease() {
        return new KarpenterRelease(major, minor, newestPatch);
    }

    /** The minor's first release, x.y.0. */
    public KarpenterRelease firstRelease() {
        return new KarpenterRelease(major, minor, 0);
    }

    public Step step() {
        return step;
    }

    /**
     * The first release of the minor that may take the next stage of the upgrade path, empty where none may: the
     * step patch, or x.y.0 where every patch may.
     */
    public Optional<KarpenterRelease> firstStepRelease() {
        if (step.any()) {
            return Optional.of(firstRelease());
        }
        return step.fromPatch().isPresent()
                ? Optional.of(
                        new KarpenterRelease(major, minor, step.fromPatch().getAsInt()))
                : Optional.empty();
    }

    /**
     * The first patch of this minor that a release from 0.36.0 on may roll back to, empty where any may: 0.36 changed
     * how drift is computed, and an older patch can drift every node (upstream's upgrade guide, v0.36.0: "v0.32.9+,
     * v0.33.4+, v0.34.5+, v0.35.4+ are the patch versions that support rollback").
     */
    public OptionalInt driftSafeRollbackPatch() {
        return switch (this) {
            case V0_32 -> OptionalInt.of(9);
            case V0_33 -> OptionalInt.of(4);
            case V0_34 -> OptionalInt.of(5);
            case V0_35 -> OptionalInt.of(4);
            default -> OptionalInt.empty();
        };
    }

    /** Whether this minor computes drift as 0.36 does, so that rolling back from it needs a drift-safe patch. */
    public boolean computesDriftAs036() {
        return ordinal() >= V0_36.ordinal();
    }

    public ServedApis served() {
        return served;
    }

    public PolicyGeneration policy() {
        return policy;
    }

    /** The features this row introduces (not those it inherits). */
    public Set<Feature> introduces() {
        return introduces;
    }

    /** The minor with a wildcard patch, as messages and the README write it: "v0.31.x", "1.10.x". */
    public String series() {
        return firstRelease().minorSeries();
    }
}
