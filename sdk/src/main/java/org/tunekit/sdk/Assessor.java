package org.tunekit.sdk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * An assessor decides, from a running trial's intermediate results, whether to stop it early.
 *
 * <p>Called from one thread at a time, with each trial's events in wire order.
 *
 * <p>Several objectives: an assessor sees each result as a {@link Metric}, whose {@link Metric#value()}
 * is the {@code default} key of a metric object. The built-in assessors judge that number alone and
 * ignore the other keys, also when the tuner optimises several {@code objectives}; put the metric that
 * should decide early stopping under {@code default}.
 */
public interface Assessor {

    /**
     * Judges a trial from its intermediate results so far.
     *
     * @param trialJobId the manager's id of the trial
     * @param history    the intermediate metrics in order of their sequence numbers, without gaps
     */
    AssessResult assessTrial(String trialJobId, List<Metric> history);

    /** Told when a trial the assessor has seen has ended; {@code success} when it succeeded. */
    default void trialEnd(String trialJobId, boolean success) {}

    /** Saves state when the experiment stops. */
    default void saveCheckpoint(Path directory) throws IOException {}

    /** Restores state when the experiment resumes. */
    default void loadCheckpoint(Path directory) throws IOException {}
}
