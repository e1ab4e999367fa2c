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
    SKIPPED("skipped"),
    /** apply --plans: Terraform refused the saved plan, whose state changed after planning. */
    STALE("stale plan"),
    /** apply --plans: after an upstream stack's apply changed an output it reads, its plan is no longer the saved one. */
    CHANGED("plan changed"),
    /** apply --plans: it has no saved plan (it could not be planned before its upstream stacks were applied). */
    NOT_PLANNED("not planned");

    private final String label;

    Outcome(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether an apply of saved plans stopped here: the plan to apply is not one that was approved. */
    boolean needsNewPlan() {
        return this == STALE || this == CHANGED || this == NOT_PLANNED;
    }

    /** Whether the stacks that read from this one can be planned after it. */
    boolean planned() {
        return this == NO_CHANGES || this == CHANGES;
    }
}
