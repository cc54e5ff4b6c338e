package org.tunekit.tuners.sobol;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides the {@code Sobol} tuner: scrambled Sobol quasi-random search. */
public final class SobolTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "Sobol";
    }

    @Override
    public String description() {
        return "Scrambled Sobol quasi-random sequence over the search space";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return SobolTuner.create(arguments);
    }
}
