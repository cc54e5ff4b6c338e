package org.tunekit.study;

/**
 * A study could not do what was asked: an unknown tuner, a definition that differs from the stored one, a
 * closed study, a trial that has already ended, a storage that cannot be read or written. The message names
 * what is wrong; nothing was half-written.
 */
public class StudyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An error with a message that names what is wrong. */
    public StudyException(String message) {
        super(message);
    }

    /** An error with a message that names what is wrong, and its cause. */
    public StudyException(String message, Throwable cause) {
        super(message, cause);
    }
}
