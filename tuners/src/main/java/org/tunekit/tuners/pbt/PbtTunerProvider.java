package org.tunekit.tuners.pbt;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code PBTTuner}, population-based training. Class arguments (NNI's): {@code optimize_mode}
 * ({@code "maximize"} by default), {@code all_checkpoint_dir}, {@code population_size} (10),
 * {@code factor} (0.2), {@code resample_probability} (0.25), {@code fraction} (0.2) and {@code seed};
 * see the package description for what they do and for the contract with trials.
 */
public final class PbtTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public PbtTunerProvider() {}

    @Override
    public String name() {
        return "PBTTuner";
    }

    @Override
    public String description() {
        return "Population-based training: a population trained in rounds, the worst copying and perturbing the best";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new PbtTuner(arguments);
    }
}
