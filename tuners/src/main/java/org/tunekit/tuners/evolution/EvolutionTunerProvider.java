package org.tunekit.tuners.evolution;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides the {@code Evolution} tuner. Class arguments: {@code optimize_mode},
 * {@code population_size} (32), {@code seed}.
 */
public final class EvolutionTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "Evolution";
    }

    @Override
    public String description() {
        return "Steady-state evolution: tournament selection, mutation of one or a few parameters, the worst member replaced";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return EvolutionTuner.create(arguments);
    }
}
