package org.tunekit.nni;

/** A step of starting or stopping an experiment failed; the message says what to do about it. */
public final class LaunchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure whose message tells the user what to do. */
    public LaunchException(String message) {
        super(message);
    }
}
