package dev.platform.karpenter.terraform;

/** What became of one stack in a run. */
public enum Outcome {
    APPLIED("applied"),
    DESTROYED("destroyed"),
    /** destroy: the stack has no state, so nothing of it exists. */
    NO_STATE("nothing to destroy"),
    NO_CHANGES("no changes"),
    CHANGES("changes"),
    /** plan: a stack it reads from was never applied, so it cannot be planned yet (a cluster's first deploy). */
    WAITING("waiting"),
    FAILED("failed"),
    /** apply and destroy: an earlier stack of its cluster failed, so it was not touched. */
    SKIPPED("skipped");

    private final String label;

    Outcome(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether the stacks that read from this one can be planned after it. */
    boolean planned() {
        return this == NO_CHANGES || this == CHANGES;
    }
}
