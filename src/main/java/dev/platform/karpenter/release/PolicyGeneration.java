package dev.platform.karpenter.release;

/**
 * The controller policies of a run of Karpenter minors: one upstream getting-started template, named by the release
 * it was copied from (policy.ControllerPolicy holds each one's statements). A minor whose template changed gets a new
 * constant; one whose template did not reuses the previous minor's.
 */
public enum PolicyGeneration {
    /** Karpenter 0.30 and 0.31, keyed on karpenter.sh/provisioner-name. */
    V1ALPHA5("v0.30.0"),
    /** Karpenter 0.32: unscoped launch templates, queue attributes read. */
    V1BETA1_BRIDGE("v0.32.10"),
    /** Karpenter 0.33 to 0.37: the use of launch templates scoped to Karpenter's own. */
    V1BETA1("0.37.8"),
    /**
     * Karpenter 1.x: upstream's six policies; the capacity reservation permissions only from the release that has
     * reservations (upstream's template gained them in 1.3.0).
     */
    V1("1.14.1");

    private final String template;

    PolicyGeneration(String template) {
        this.template = template;
    }

    /** The release whose getting-started template the statements are copied from, as the registry spells it. */
    public String template() {
        return template;
    }
}
