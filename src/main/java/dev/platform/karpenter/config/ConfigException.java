package dev.platform.karpenter.config;

/**
 * Bad input in a tfvars file. The message is one line that names the setting and what is allowed; the app
 * prints it and exits non-zero before anything is synthesized.
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    /** Prefixes the message with the file it came from, keeping it on one line. */
    public ConfigException in(String source) {
        return new ConfigException(source + ": " + getMessage());
    }
}
