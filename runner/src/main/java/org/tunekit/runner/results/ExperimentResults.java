package org.tunekit.runner.results;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.objectives.Objectives;
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
 * @param objectives the tuner's {@code objectives} class argument as given (a list of objects with {@code metric},
 *                  {@code mode} and optionally {@code reference}), empty for a single-objective experiment
 * @param searchSpace the search space's definition as configured (plain JSON values, in the config's order), empty
 *                  when not known; it tells how a parameter reads ({@code choice}: one of its options)
 */
public record ExperimentResults(String id, String name, boolean maximize, Instant started, Instant ended, String status,
                                List<TrialRecord> trials, List<Map<String, Object>> objectives, Map<String, Object> searchSpace) {
    public ExperimentResults {
        trials = List.copyOf(trials);
        objectives = objectives == null ? List.of() : List.copyOf(objectives);
        searchSpace = searchSpace == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(searchSpace));
    }

    /** Results whose search space is not known. */
    public ExperimentResults(String id, String name, boolean maximize, Instant started, Instant ended, String status,
                             List<TrialRecord> trials, List<Map<String, Object>> objectives) {
        this(id, name, maximize, started, ended, status, trials, objectives, Map.of());
    }

    /** Results of a single-objective experiment whose search space is not known. */
    public ExperimentResults(String id, String name, boolean maximize, Instant started, Instant ended, String status,
                             List<TrialRecord> trials) {
        this(id, name, maximize, started, ended, status, trials, List.of());
    }

    /**
     * The objectives, read as the tuners read them.
     *
     * @throws IllegalArgumentException naming what is wrong when {@link #objectives()} is malformed
     */
    public Objectives objectiveList() {
        return objectives.isEmpty() ? Objectives.none() : Objectives.from(ClassArguments.of(Map.of(Objectives.ARGUMENT, objectives)));
    }

    /** The trials that have a final value, best first, but LOST ones (their parameters ran again): see {@link TrialStatus#ranked}. */
    public List<TrialRecord> ranked() {
        return Values.ranking(this);
    }

    /** The best trial, if any has a final value. */
    public Optional<TrialRecord> best() {
        List<TrialRecord> r = ranked();
        return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
    }
}
