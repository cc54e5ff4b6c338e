package org.tunekit.runner.results;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Made-up results for the tests. */
final class Trials {
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    private Trials() {
    }

    /** A trial that started {@code seq} minutes after T0 and ran the given seconds. */
    static TrialRecord trial(int seq, TrialStatus status, Double value, Map<String, Object> parameters,
                             List<Double> intermediate, double seconds) {
        Instant started = T0.plusSeconds(60L * seq);
        Instant ended = status == TrialStatus.RUNNING ? null : started.plusMillis((long) (seconds * 1000));
        Integer exit = status == TrialStatus.SUCCEEDED ? Integer.valueOf(0) : status == TrialStatus.FAILED ? 1 : null;
        return new TrialRecord(seq, String.format("T%04d", seq), seq, parameters, status, value,
                value == null ? null : Map.of("default", value), intermediate, started, ended, exit, null);
    }

    static TrialRecord trial(int seq, Double value, Map<String, Object> parameters) {
        return trial(seq, TrialStatus.SUCCEEDED, value, parameters, List.of(), 30);
    }

    static ExperimentResults experiment(boolean maximize, List<TrialRecord> trials) {
        return new ExperimentResults("exp1", "made up", maximize, T0, T0.plusSeconds(3600), "DONE", trials);
    }
}
