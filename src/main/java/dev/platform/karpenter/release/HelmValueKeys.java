package dev.platform.karpenter.release;

import java.util.List;
import java.util.Optional;

/**
 * Where the karpenter chart of one generation reads each value this project sets. 0.x reads its AWS settings
 * under {@code settings.aws}; 0.32 renamed them to {@code settings.*} and 0.33 stopped reading the old keys, so
 * writing the wrong generation's key silently turns the setting off (interruption handling, typically).
 *
 * @param defaultInstanceProfile empty where the chart has no such setting (1.x: EC2NodeClass spec.role instead)
 */
public record HelmValueKeys(
        ValuePath clusterName,
        ValuePath clusterEndpoint,
        ValuePath interruptionQueue,
        Optional<ValuePath> defaultInstanceProfile) {

    /** Keys both generations share. */
    public static final ValuePath SERVICE_ACCOUNT_NAME = ValuePath.of("serviceAccount", "name");

    public static final ValuePath SERVICE_ACCOUNT_ANNOTATIONS = ValuePath.of("serviceAccount", "annotations");
    /** The service account annotation that binds the controller role under IRSA. */
    public static final String ROLE_ARN_ANNOTATION = "eks.amazonaws.com/role-arn";

    public static final ValuePath REPLICAS = ValuePath.of("replicas");
    /** The chart's ServiceMonitor for the Prometheus Operator, and the labels its selector needs. */
    public static final ValuePath SERVICE_MONITOR_ENABLED = ValuePath.of("serviceMonitor", "enabled");

    public static final ValuePath SERVICE_MONITOR_LABELS = ValuePath.of("serviceMonitor", "additionalLabels");
    public static final ValuePath CONTROLLER_RESOURCES = ValuePath.of("controller", "resources");
    public static final ValuePath TOLERATIONS = ValuePath.of("tolerations");
    public static final ValuePath AFFINITY = ValuePath.of("affinity");
    /** The ReservedCapacity feature gate, in the charts of the releases that have capacity reservations. */
    public static final ValuePath RESERVED_CAPACITY_GATE = ValuePath.of("settings", "featureGates", "reservedCapacity");

    /** Karpenter 0.30 and 0.31. */
    static final HelmValueKeys V0 = new HelmValueKeys(
            ValuePath.of("settings", "aws", "clusterName"),
            ValuePath.of("settings", "aws", "clusterEndpoint"),
            ValuePath.of("settings", "aws", "interruptionQueueName"),
            Optional.of(ValuePath.of("settings", "aws", "defaultInstanceProfile")));

    /** Karpenter 0.32 to 0.37 and 1.x. */
    static final HelmValueKeys V1 = new HelmValueKeys(
            ValuePath.of("settings", "clusterName"),
            ValuePath.of("settings", "clusterEndpoint"),
            ValuePath.of("settings", "interruptionQueue"),
            Optional.empty());

    /**
     * The keys of every generation. The 0.32 chart still takes settings.aws.* (an open map there) and prefers it over
     * settings.*, so what the app sets is guarded in both spellings.
     */
    public static List<HelmValueKeys> everyGeneration() {
        return List.of(V0, V1);
    }

    /**
     * Karpenter 0.32 while it still runs v1alpha5 Provisioners: their nodes take the instance profile from the
     * old key, the only settings.aws key 0.32 still reads.
     */
    static final HelmValueKeys V1_WITH_ALPHA_PROFILE = new HelmValueKeys(
            V1.clusterName(), V1.clusterEndpoint(), V1.interruptionQueue(), V0.defaultInstanceProfile());
}
