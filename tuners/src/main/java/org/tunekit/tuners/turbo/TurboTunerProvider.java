package org.tunekit.tuners.turbo;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code TuRBO} with the class arguments {@code optimize_mode}, {@code seed},
 * {@code initial_points}, {@code candidates}, {@code success_tolerance}, {@code failure_tolerance},
 * {@code initial_length}, {@code min_length}, {@code max_length} and {@code output_warping}
 * (see {@link TurboTuner}).
 */
public final class TurboTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "TuRBO";
    }

    @Override
    public String description() {
        return "Trust-region Bayesian optimisation (TuRBO-1): a Gaussian process searched inside a trust region that grows and shrinks";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return TurboTuner.create(arguments);
    }
}
