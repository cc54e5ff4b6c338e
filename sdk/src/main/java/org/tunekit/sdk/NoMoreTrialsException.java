package org.tunekit.sdk;

/**
 * Thrown by a tuner that has nothing more to suggest (for example a grid that is fully explored).
 * The dispatcher answers the manager with {@code NO}.
 */
public class NoMoreTrialsException extends Exception {
    /** Creates the exception with a reason. */
    public NoMoreTrialsException(String message) {
        super(message);
    }
}
