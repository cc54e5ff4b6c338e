package org.tunekit.runner.results;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a local experiment has recorded: its trials in order of sequence.
 *
 * @param id        the experiment id
 * @param name      its {@code experimentName}, or {@code null}
 * @param maximize  true when larger final values are better ({@code optimize_mode: maximize})
 * @param started   when it started
 * @param ended     when it ended, or {@code null} while running or after a crash
 * @param status    its state: RUNNING, DONE, STOPPED, ERROR
 * @param trials    its trials, in order of sequence
 */
public record ExperimentResults(String id, String name, boolean maximize, Instant started, Instant ended, String status,
                                List<TrialRecord> trials) {
    public ExperimentResults {
        trials = List.copyOf(trials);
    }

    /** The trials that have a final value, best first. */
    public List<TrialRecord> ranked() {
        Comparator<TrialRecord> byValue = Comparator.comparingDouble(TrialRecord::finalValue);
        return trials.stream().filter(t -> t.finalValue() != null && !t.finalValue().isNaN())
                .sorted(maximize ? byValue.reversed() : byValue).toList();
    }

    /** The best trial, if any has a final value. */
    public Optional<TrialRecord> best() {
        List<TrialRecord> r = ranked();
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }
}
