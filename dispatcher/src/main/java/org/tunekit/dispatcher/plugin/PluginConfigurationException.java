package org.tunekit.dispatcher.plugin;

/** An algorithm cannot be found or created: unknown or ambiguous name, bad class, bad class arguments, broken jar. */
public final class PluginConfigurationException extends RuntimeException {
    /** Creates the exception. */
    public PluginConfigurationException(String message) {
        super(message);
    }

    /** Creates the exception with a cause. */
    public PluginConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
