package org.tunekit.runner.manager;

import java.time.Instant;
import java.util.List;
import org.tunekit.runner.results.TrialStatus;

/**
 * A trial as an experiment's journal holds it, for a manager that continues the experiment.
 *
 * @param sequence        its number in the experiment
 * @param trialJobId      its job id
 * @param parameterId     the id of its parameters
 * @param parameterRecord its parameters as the tuner sent them
 * @param status          its recorded state ({@link TrialStatus#RUNNING} when the manager stopped while it ran)
 * @param finalMetric     its final result's text, or {@code null}
 * @param finalValue      the number ranked from it, or {@code null}
 * @param handle          what its training service returned as the handle, or {@code null}
 * @param gpus            the GPUs it was given, or {@code null}
 * @param started         when it started
 * @param fileFrames      how many frames of its metrics file the manager handled
 * @param outputFrames    how many {@code NNISDK_ME} lines of its output the manager handled
 */
public record StoredTrial(int sequence, String trialJobId, long parameterId, String parameterRecord, TrialStatus status,
                          String finalMetric, Double finalValue, String handle, List<Integer> gpus, Instant started,
                          int fileFrames, int outputFrames) {
    /** How many frames read from {@code stream} the manager handled (none for a live stream). */
    public int framesRead(MetricStream stream) {
        return switch (stream) {
            case LIVE -> 0;
            case FILE -> fileFrames;
            case OUTPUT -> outputFrames;
        };
    }
}
