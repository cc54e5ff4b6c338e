package org.tunekit.sdk;

/** A class argument is missing, unknown, or of the wrong type or range; the message names it. */
public class InvalidClassArgumentException extends IllegalArgumentException {
    /** Creates the exception. */
    public InvalidClassArgumentException(String message) {
        super(message);
    }
}
