package org.tunekit.tuners.random;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides the {@code Random} tuner. Class arguments: {@code optimize_mode} (accepted, not used)
 * {@code seed} (optional; without it a random seed is chosen and logged) and {@code objectives}
 * (checked, not used: Random is the baseline of multi-objective experiments, whose results need
 * the objectives).
 */
public final class RandomTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public RandomTunerProvider() {}

    @Override
    public String name() {
        return "Random";
    }

    @Override
    public String description() {
        return "Random search: independent draws from the search space's prior, without repeats";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new RandomTuner(arguments);
    }
}
