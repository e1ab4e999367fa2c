package dev.platform.karpenter.release;

import java.util.Optional;

/**
 * The API generations a Karpenter minor serves for its pools and node classes: its own, and at the two bridging
 * minors (0.32, 1.0) the previous one beside it. Upstream's upgrade path moves one of these at a time, so they are
 * also its stages, in order.
 */
public enum ServedApis {
    /** 0.30 and 0.31. */
    V1ALPHA5(ApiGeneration.V1ALPHA5, false),
    /** 0.32: v1beta1, with the v1alpha5 CRDs still installed beside it. */
    V1BETA1_BESIDE_V1ALPHA5(ApiGeneration.V1BETA1, true),
    /** 0.33 to 0.37. */
    V1BETA1(ApiGeneration.V1BETA1, false),
    /** 1.0: v1, with conversion webhooks still serving v1beta1. */
    V1_BESIDE_V1BETA1(ApiGeneration.V1, true),
    /** 1.1 and later. */
    V1(ApiGeneration.V1, false);

    private final ApiGeneration own;
    private final boolean servesPrevious;

    ServedApis(ApiGeneration own, boolean servesPrevious) {
        this.own = own;
        this.servesPrevious = servesPrevious;
    }

    /** The generation the minor serves as its own. */
    public ApiGeneration own() {
        return own;
    }

    /** The previous generation, where the minor still serves it. */
    public Optional<ApiGeneration> previous() {
        return servesPrevious ? Optional.of(ApiGeneration.values()[own.ordinal() - 1]) : Optional.empty();
    }
}
