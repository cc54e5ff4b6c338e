package org.tunekit.runner.manager;

/** The experiment cannot go on: the dispatcher did not start, or failed. The message says why. */
public final class ManagerException extends RuntimeException {
    public ManagerException(String message) {
        super(message);
    }

    public ManagerException(String message, Throwable cause) {
        super(message, cause);
    }
}
