package dev.platform.karpenter.release;

import java.util.List;
import java.util.Locale;

/**
 * The kinds a cluster may declare beside its pools and node classes, each declared once, here: its type, the setting
 * that lists its objects ({name, spec, metadata} entries), the release feature that brings it (its release span) and
 * the chart's feature gate (off by default) that must be on for the controller to act on it. The settings reader, the manifests, the
 * CRD check, the controller's values and libexec/vendor-release (which CRDs to vendor) all read this declaration;
 * what remains per kind is its documented setting in config.SettingsCatalogue and its vendored CRD.
 *
 * <p>The project sets only the object's name (from the entry's name); no spec field of these kinds is owned.
 *
 * <p>Not declared: CapacityBuffer (autoscaling.x-k8s.io, the newest release's capacityBuffer gate), a namespaced object that
 * points at a workload's PodTemplate or scalable object, which belongs with that workload, not with the cluster's
 * Karpenter (docs/guides/preview.md).
 */
public record AddOnKind(ObjectType type, String setting, KarpenterMinor.Feature feature, ValuePath gate) {
    /**
     * NodeOverlay: prices and extended resources Karpenter assumes for the instance types an overlay's requirements
     * select (alpha, 1.7 on).
     */
    public static final AddOnKind NODE_OVERLAY = new AddOnKind(
            new ObjectType("karpenter.sh", "v1alpha1", "NodeOverlay"),
            "node_overlays",
            KarpenterMinor.Feature.NODE_OVERLAYS,
            ValuePath.of("settings", "featureGates", "nodeOverlay"));

    private static final List<AddOnKind> ALL = List.of(NODE_OVERLAY);

    /** Every add-on kind, in the order their settings are read. */
    public static List<AddOnKind> values() {
        return ALL;
    }

    /** Whether {@code release} serves the kind. */
    public boolean servedBy(KarpenterRelease release) {
        return release.has(feature);
    }

    /** How messages name one object: "node overlay". */
    public String noun() {
        return type.kind().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return type.kind();
    }
}
