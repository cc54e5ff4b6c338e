package org.tunekit.runner.manager;

import org.tunekit.runner.results.TrialStatus;

/**
 * What trials do, as their training service reports it to the {@link ExperimentManager}. Callable
 * from any thread; on the manager's thread a call takes effect before it returns.
 */
public interface TrialEvents {
    /**
     * The trial asks for parameters.
     *
     * @param byFile true when it asked through its files (NNI 2.x's channel), false on a live channel
     * @param index  the parameter index it asked for, or -1 when the channel does not say
     */
    void parameterRequest(String trialJobId, boolean byFile, int index);

    /**
     * The trial reports a metric (the text of NNI's {@code ME} payload, as the trial wrote it: the manager
     * reads it once and hands the dispatcher what it read). Returns once it is recorded;
     * a frame read from a file is then counted in the store ({@link StoredTrial#framesRead}), also when
     * it was a request for parameters or malformed.
     *
     * @param from where it was read: a file's frames are asked for parameters as NNI 2.x's file channel
     * @throws IllegalArgumentException naming what is wrong with the metric
     */
    void metric(String trialJobId, String text, MetricStream from);

    /** The trial talks in a way that is wrong (an unreadable metrics file); it will end FAILED. */
    void problem(String trialJobId, String text);

    /** The trial's process (or job) ended with this status (128 + the signal for a signal). */
    void exited(String trialJobId, int exitCode);

    /**
     * The trial's job ended without an exit status of its own (the place it ran ended it), and that
     * place says how. Instead of {@link #exited}, and like it the trial's end:
     * <ul>
     *   <li>{@link TrialStatus#LOST}: lost through no fault of its own (its node failed, it was preempted):
     *       its parameters run again as a new trial, first in line, and the lost one does not count
     *       towards {@code maxTrialNumber}; the tuner is not told of the loss. But a trial being stopped
     *       (the assessor's KI, a time limit, the experiment ending) ends as it was being stopped, and one
     *       whose final result was recorded ends SUCCEEDED;</li>
     *   <li>{@link TrialStatus#USER_CANCELED}: someone else cancelled it, or the place ended it at its time limit;</li>
     *   <li>{@link TrialStatus#FAILED}: the place ended it for what it did (out of memory).</li>
     * </ul>
     *
     * @param reason what happened, for the records ("Slurm job 12 ended NODE_FAIL")
     * @throws IllegalArgumentException for any other status
     */
    void ended(String trialJobId, TrialStatus status, String reason);

    /**
     * The trial is lost with the place it ran (its machine stopped answering): {@link #ended} with
     * {@link TrialStatus#LOST}, so its parameters run again.
     *
     * @param reason what happened, for the records ("machine u@h:22 did not answer for 60 s")
     */
    default void lost(String trialJobId, String reason) {
        ended(trialJobId, TrialStatus.LOST, reason);
    }
}
