package org.tunekit.runner.manager;

/**
 * Where a trial's metric frame was read. Frames read from a file (its metrics file, or the lines it
 * printed) are counted in the experiment's store as they are handled, so that a later manager that
 * {@linkplain TrainingService#reattach reattaches} to the trial reads the file again and skips exactly
 * the frames handled before: none is lost and none is handed on twice, whenever the manager was killed.
 */
public enum MetricStream {
    /** A live channel (a connection from the trial, or a simulation): nothing to read again. */
    LIVE,
    /** The trial's metrics file ({@link TrialScript#METRICS}, NNI's file channel). */
    FILE,
    /** The {@code NNISDK_ME} lines the trial printed (read by {@link org.tunekit.runner.TrialMetricFiles}). */
    OUTPUT
}
