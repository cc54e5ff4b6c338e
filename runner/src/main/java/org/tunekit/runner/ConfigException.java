package org.tunekit.runner;

/** An experiment config, a search space or a command-line value is wrong; the message names where and what. */
public final class ConfigException extends RuntimeException {
    ConfigException(String message) {
        super(message);
    }

    ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
