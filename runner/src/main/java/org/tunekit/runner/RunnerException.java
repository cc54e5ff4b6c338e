package org.tunekit.runner;

/** The runner cannot go on (its folder, database or trial channel failed, or the dispatcher reported an error). */
public final class RunnerException extends RuntimeException {
    RunnerException(String message) {
        super(message);
    }

    RunnerException(String message, Throwable cause) {
        super(message, cause);
    }
}
