package org.tunekit.dispatcher;

/** A plugin (tuner, assessor or advisor) threw; the message says which plugin and which callback. */
public final class PluginException extends RuntimeException {
    /** Wraps what the plugin threw. */
    public PluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
