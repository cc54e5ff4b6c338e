package org.tunekit.tuners.gp;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code GPTuner} with NNI's class arguments: {@code optimize_mode}, {@code utility}
 * (ei, ucb, poi), {@code kappa}, {@code xi}, {@code nu} (0.5, 1.5, 2.5), {@code alpha},
 * {@code cold_start_num}, {@code selection_num_warm_up}, {@code selection_num_starting_points},
 * plus {@code seed} and {@code output_warping} (see {@link GpTuner}).
 */
public final class GpTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "GPTuner";
    }

    @Override
    public String description() {
        return "Gaussian-process Bayesian optimisation (Matern kernel, fitted length-scales)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return GpTuner.create(arguments);
    }
}
