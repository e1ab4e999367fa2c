package dev.platform.karpenter.synth;

/**
 * A run that cannot start for a reason outside the configuration files: an environment variable, the output
 * directory, a missing tool. The message is one line, printed as the run's only output with exit status 2.
 */
public final class BadEnvironment extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadEnvironment(String message) {
        super(message);
    }
}
