package org.tunekit.tuners.regevo;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides the {@code RegularizedEvolutionTuner}. Class arguments: {@code optimize_mode},
 * {@code population_size} (100), {@code sample_size} (25), {@code seed}.
 */
public final class RegularizedEvolutionTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "RegularizedEvolutionTuner";
    }

    @Override
    public String description() {
        return "Regularized (aging) evolution: tournament of sample_size, one-parameter mutation, the oldest member dies";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return RegularizedEvolutionTuner.create(arguments);
    }
}
