package org.tunekit.runner.results;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One trial of a local experiment, as recorded.
 *
 * @param sequence     the trial's number in the experiment, from 0 ({@code NNI_TRIAL_SEQ_ID})
 * @param trialJobId   its job id ({@code NNI_TRIAL_JOB_ID})
 * @param parameterId  the id of the parameters it ran
 * @param parameters   the parameters it ran, in the search space's order (plain JSON values: String, Boolean, Long, Double, List, Map)
 * @param status       its state
 * @param finalValue   the number the tuner optimises from its final result (the metric, or its {@code default} key), or {@code null}
 * @param finalMetric  its whole final result as plain JSON values (a number, or a map of metrics), or {@code null}
 * @param intermediate its intermediate results' numbers, in order of sequence
 * @param started      when its process started
 * @param ended        when it ended, or {@code null} while running
 * @param exitCode     its process's exit status, or {@code null} (running, killed by a signal, or never started)
 * @param message      why it failed or was stopped, or {@code null}
 * @param gpus         the indices of the GPUs it was given (empty for none), or {@code null} when GPUs were not scheduled
 */
public record TrialRecord(int sequence, String trialJobId, long parameterId, Map<String, Object> parameters,
                          TrialStatus status, Double finalValue, Object finalMetric, List<Double> intermediate,
                          Instant started, Instant ended, Integer exitCode, String message, List<Integer> gpus) {
    public TrialRecord {
        parameters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parameters));
        intermediate = List.copyOf(intermediate);
        gpus = gpus == null ? null : List.copyOf(gpus);
    }

    /** A trial of an experiment that scheduled no GPUs. */
    public TrialRecord(int sequence, String trialJobId, long parameterId, Map<String, Object> parameters, TrialStatus status,
                       Double finalValue, Object finalMetric, List<Double> intermediate, Instant started, Instant ended, Integer exitCode,
                       String message) {
        this(sequence, trialJobId, parameterId, parameters, status, finalValue, finalMetric, intermediate, started, ended, exitCode, message, null);
    }
}
