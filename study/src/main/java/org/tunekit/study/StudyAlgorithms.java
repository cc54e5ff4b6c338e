package org.tunekit.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;

/**
 * A study's tuner and assessor, called as the dispatcher calls them: a generated trial's result through
 * {@code receiveTrialResult} then {@code trialEnd}, others' results through {@code importData}, each running trial's
 * intermediate values to the assessor in order. Every failure of a plugin becomes a {@link StudyException} naming the
 * plugin and the call. Not thread-safe: the study calls it under its lock.
 */
final class StudyAlgorithms {
    private final StudyDefinition definition;
    private final Tuner tuner;
    private final Assessor assessor;

    StudyAlgorithms(StudyDefinition definition, Tuner tuner, Assessor assessor) {
        this.definition = definition;
        this.tuner = tuner;
        this.assessor = assessor;
    }

    boolean hasAssessor() {
        return assessor != null;
    }

    void open(TunerContext context) {
        call("open", null, () -> tuner.open(context));
        call("updateSearchSpace", null, () -> tuner.updateSearchSpace(definition.space()));
    }

    /**
     * The tuner's suggestion for {@code id}, checked against the space.
     *
     * @param runningTrials how many trials run, asked only when the tuner has nothing (they may make it suggest again)
     * @throws StudyExhaustedException when it has none
     */
    Parameters suggest(long id, java.util.function.IntSupplier runningTrials) {
        Parameters p;
        try {
            p = tuner.generateParameters(id);
        } catch (NoMoreTrialsException e) {
            int running = runningTrials.getAsInt();
            throw new StudyExhaustedException("the tuner " + definition.tuner() + " has nothing more to suggest"
                    + (running > 0 ? " while " + running + " trials run" : ""), running > 0);
        } catch (RuntimeException e) {
            throw new StudyException("the tuner " + definition.tuner() + " failed in generateParameters(" + id + "): " + e, e);
        }
        if (p == null) {
            throw new StudyException("the tuner " + definition.tuner() + " suggested nothing (null) for parameter id " + id);
        }
        Optional<String> wrong = definition.space().violation(p);
        if (wrong.isPresent()) {
            throw new StudyException("the tuner " + definition.tuner() + " suggested parameters outside the space for id " + id + ": "
                    + wrong.get());
        }
        return p;
    }

    /** A trial of this worker succeeded with {@code metric}. */
    void succeeded(TrialRecord t, Metric metric) {
        if (!t.enqueued()) {
            call("receiveTrialResult", t.parameterId(),
                    () -> tuner.receiveTrialResult(new TrialResult(t.parameterId(), t.parameters(), metric, false, t.jobId())));
        } else if (tuner.acceptsCustomizedTrials()) {
            call("receiveTrialResult", t.parameterId(),
                    () -> tuner.receiveTrialResult(new TrialResult(t.parameterId(), t.parameters(), metric, true, t.jobId())));
        } else {
            // an enqueued configuration's result informs the tuner as an imported one does
            call("importData", null, () -> tuner.importData(List.of(new ImportedTrial(t.parameters(), metric))));
        }
        ended(t, true);
    }

    /** A trial of this worker ended ({@code success} after {@link #succeeded}). */
    void ended(TrialRecord t, boolean success) {
        call("trialEnd", t.parameterId(), () -> tuner.trialEnd(t.parameterId(), success));
        if (assessor != null) {
            assess("trialEnd", t.jobId(), () -> assessor.trialEnd(t.jobId(), success));
        }
    }

    /** The assessor's verdict on a running trial of this worker, from its intermediate values so far. */
    boolean shouldStop(TrialRecord t, List<Metric> history) {
        AssessResult[] verdict = new AssessResult[1];
        assess("assessTrial", t.jobId(), () -> verdict[0] = assessor.assessTrial(t.jobId(), List.copyOf(history)));
        return verdict[0] == AssessResult.BAD;
    }

    /**
     * Trials that ended elsewhere (in another worker, or before this study was loaded), in the order they ended: the
     * tuner learns the results, the assessor the curves.
     *
     * @param metrics the metric of each succeeded trial, by its position in {@code trials}
     */
    void endedElsewhere(List<TrialRecord> trials, List<Metric> metrics) {
        List<ImportedTrial> results = new ArrayList<>();
        for (int i = 0; i < trials.size(); i++) {
            TrialRecord t = trials.get(i);
            if (t.state() == TrialState.SUCCEEDED) {
                results.add(new ImportedTrial(t.parameters(), metrics.get(i)));
            }
            if (assessor != null && !t.intermediate().isEmpty()) {
                List<Metric> history = t.intermediate().values().stream().map(Metric::of).toList();
                assess("assessTrial", t.jobId() + ") of trial " + t.number() + " of another worker (", () -> {
                    assessor.assessTrial(t.jobId(), history);
                    assessor.trialEnd(t.jobId(), t.state() == TrialState.SUCCEEDED);
                });
            }
        }
        if (!results.isEmpty()) {
            call("importData", null, () -> tuner.importData(results));
        }
    }

    /** Calls the tuner's {@code method} (on {@code argument}, if not null); a failure names them. */
    private void call(String method, Object argument, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            throw new StudyException("the tuner " + definition.tuner() + " failed in " + method + (argument == null ? "" : "(" + argument + ")")
                    + ": " + e, e);
        }
    }

    /** Calls the assessor's {@code method} on {@code argument}; a failure names them. */
    private void assess(String method, Object argument, Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            throw new StudyException("the assessor " + definition.assessor() + " failed in " + method + "(" + argument + "): " + e, e);
        }
    }
}
