package org.tunekit.bench.curves;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * One run of one configuration with one seed.
 *
 * @param setup   the configuration
 * @param seed    the seed (the tuner's or advisor's, and the curves' noise)
 * @param trace   what the run did, or {@code null} when it failed
 * @param failure why it failed, or {@code null}
 */
record CurveRun(CurveSetup setup, long seed, CurveExperiment.RunTrace trace, String failure) {

    boolean succeeded() {
        return trace != null;
    }

    long epochs() {
        return trace.epochs();
    }

    /** The trial that ran all epochs and succeeded with the best reported final value (ties: the earlier), if any. */
    Optional<CurveExperiment.TrialRecord> chosen() {
        return trace.trials().stream().filter(CurveExperiment.TrialRecord::completedFully)
                .min(Comparator.comparingDouble(CurveExperiment.TrialRecord::lastValue)
                        .thenComparingInt(CurveExperiment.TrialRecord::index));
    }

    /** The true regret of {@link #chosen()}, or NaN when no trial ran all epochs. */
    double regret() {
        return chosen().map(t -> CurveSuite.regret(t.parameters())).orElse(Double.NaN);
    }

    /** The best true regret among all trials that ran all epochs (what an oracle picking among them would get), or NaN. */
    double oracleRegret() {
        return trace.trials().stream().filter(CurveExperiment.TrialRecord::completedFully)
                .mapToDouble(t -> CurveSuite.regret(t.parameters())).min().orElse(Double.NaN);
    }

    /**
     * The epochs the run had spent when the trial it would choose first had a true regret of at most
     * {@code target} (the choice being, at each trial end, the best reported final value among the
     * full-length trials so far), or infinity when that never happened.
     */
    double epochsToReach(double target) {
        CurveExperiment.TrialRecord chosen = null;
        for (CurveExperiment.TrialRecord t : trace.trials()) {
            if (t.completedFully() && (chosen == null || t.lastValue() < chosen.lastValue())) {
                chosen = t;
            }
            if (chosen != null && CurveSuite.regret(chosen.parameters()) <= target) {
                return t.runEpochs();
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    int started() {
        return trace.trials().size();
    }

    long completed() {
        return count(trace.trials(), CurveExperiment.TrialRecord::completedFully);
    }

    long killed() {
        return count(trace.trials(), CurveExperiment.TrialRecord::killed);
    }

    private static long count(List<CurveExperiment.TrialRecord> trials, java.util.function.Predicate<CurveExperiment.TrialRecord> p) {
        return trials.stream().filter(p).count();
    }
}
