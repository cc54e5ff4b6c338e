package org.tunekit.runner.manager;

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
     * The trial reports a metric (the text of NNI's {@code ME} payload). Returns once it is recorded.
     *
     * @throws IllegalArgumentException naming what is wrong with the metric
     */
    void metric(String trialJobId, String text, boolean byFile);

    /** The trial talks in a way that is wrong (an unreadable metrics file); it will end FAILED. */
    void problem(String trialJobId, String text);

    /** The trial's process (or job) ended with this status (128 + the signal for a signal). */
    void exited(String trialJobId, int exitCode);

    /**
     * The trial is lost with the place it ran (its machine stopped answering): it ends LOST, its
     * training service has {@linkplain TrainingService#collect collected} what it could, and its
     * parameters run again as a new trial, as those of a trial lost while the manager was stopped do.
     *
     * @param reason what happened, for the records ("machine u@h:22 did not answer for 60 s")
     */
    void lost(String trialJobId, String reason);
}
