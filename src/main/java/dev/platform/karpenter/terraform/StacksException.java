package dev.platform.karpenter.terraform;

/** Bad input to the stacks command (arguments, a missing or broken manifest): one line, exit status 64. */
public final class StacksException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StacksException(String message) {
        super(message);
    }
}
