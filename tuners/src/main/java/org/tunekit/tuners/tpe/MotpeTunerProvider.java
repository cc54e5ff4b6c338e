package org.tunekit.tuners.tpe;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code MOTPE}, multi-objective TPE (after Ozaki et al. 2020, "Multiobjective
 * Tree-Structured Parzen Estimator for Computationally Expensive Optimization Problems"): the
 * {@code TPE} tuner with the observations split into good and bad by Pareto rank and hypervolume
 * contribution instead of by one loss (see {@link TpeTuner}).
 *
 * <p>Class arguments: {@code objectives} (at least two, see {@link Objectives}), {@code seed},
 * {@code multivariate} (default true: whole parameter sets are drawn and scored together), and {@code tpe_args} as for {@code TPE} ({@code n_startup_jobs} default
 * {@value TpeSettings#MOTPE_STARTUP}, {@code gamma} default {@value TpeSettings#MOTPE_GAMMA} times the number of objectives less one, at most 1:
 * {@code ceil(gamma * n^0.8)} of n observations are good; {@code constant_liar_type} default
 * {@value TpeSettings#LIAR}: a pending trial counts as bad, {@code best} counts it good). A trial's result must hold every
 * objective's key; one that does not is refused with an error naming the trial and the key.
 */
public final class MotpeTunerProvider implements TunerProvider {

    /** Creates the provider (ServiceLoader needs a public constructor). */
    public MotpeTunerProvider() {}

    @Override
    public String name() {
        return "MOTPE";
    }

    @Override
    public String description() {
        return "Multi-objective TPE: Parzen estimators of the Pareto-good and the other trials (Ozaki et al. 2020)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        TpeSettings settings = TpeSettings.fromMultiObjective(arguments);
        return new TpeTuner(settings, Objectives.from(arguments).requireSeveral("MOTPE"));
    }
}
