package org.tunekit.sdk;

/** An assessor's verdict on a running trial. */
public enum AssessResult {
    /** Let the trial go on. */
    GOOD,
    /** Stop the trial early. */
    BAD
}
