package org.tunekit.tuners.auto;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.tpe.MotpeTunerProvider;
import org.tunekit.tuners.tpe.TpeTunerProvider;
import org.tunekit.tuners.turbo.TurboThen;

/**
 * Provides {@code Auto}, the recommended tuner: a stable name for the built-in algorithm that measured
 * best, so that a user need not know which one suits a problem, and an experiment that asks for it
 * gets a better algorithm when the measurements find one.
 *
 * <p>Today that is {@code TuRBO} (Gaussian-process optimisation in a trust region around the best
 * point, restarted when it collapses) for every single-objective search space, in batches too:
 * after 100 trials it has the lowest median regret of Tunekit's tuners on all five functions of the
 * classic suite and on five of the six of 8 to 20 parameters, one at a time, and the highest mean
 * normalised score of every tuner measured, Tunekit's, Optuna's and NNI's, on the real-model suite
 * (scikit-learn models on real data, 64 trials one at a time; with 128 trials, one at a time or in
 * 16 rounds of 8, Optuna's TPE is a few points ahead within the spread, Tunekit's {@code CMAES}
 * leads by starting at the centre of the ranges: from a random start it is level with or behind
 * this choice there, and on the same models' other metrics in rounds of 8 it is behind this choice;
 * in the rounds of 8 Tunekit's {@code TPE} is ahead too; both are far behind
 * this choice on every synthetic function, one at a time and in batches). The global
 * Gaussian process ({@code GPTuner}) was a candidate for small spaces and short budgets, and lost on
 * the real models: the flat stretches of an error rate and the heavy tails of a log loss stall it,
 * where TuRBO's warped losses and restarts do not.
 *
 * <p>For several objectives (the {@code objectives} argument, as {@code MOTPE} takes it) that is
 * {@code MOTPE}, whose hypervolume is the highest of Tunekit's multi-objective tuners on every problem
 * of the multi-objective benchmark, one at a time and in batches, and above Optuna's MOTPE and
 * NSGA-II wherever they were measured.
 *
 * <p>Class arguments: {@code optimize_mode} (default {@code maximize}, as NNI's tuners) or
 * {@code objectives}, and {@code seed}; the rest of the chosen tuner's are not taken, since the
 * algorithm behind the name may change.
 */
public final class AutoTunerProvider implements TunerProvider {
    private static final System.Logger LOG = System.getLogger(AutoTunerProvider.class.getName());

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public AutoTunerProvider() {}

    @Override
    public String name() {
        return "Auto";
    }

    @Override
    public String description() {
        return "The recommended tuner: the built-in algorithm that measured best (today TuRBO; MOTPE for several objectives)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        if (arguments.has(Objectives.ARGUMENT)) {
            arguments.requireOnly(Objectives.ARGUMENT, "seed");
            if (Objectives.from(arguments).size() < 2) {
                throw new InvalidClassArgumentException("class argument 'objectives' of Auto names fewer than 2 objectives: "
                        + "give optimize_mode for one objective (the trial's default metric), or at least 2 objectives");
            }
            LOG.log(System.Logger.Level.INFO, "Auto: MOTPE (several objectives)");
            return new MotpeTunerProvider().create(arguments);
        }
        arguments.requireOnly("optimize_mode", "seed");
        LOG.log(System.Logger.Level.INFO, "Auto: TuRBO, then TPE from the first collapse of its trust region");
        return TurboThen.create(arguments, () -> new TpeTunerProvider().create(arguments));
    }
}
