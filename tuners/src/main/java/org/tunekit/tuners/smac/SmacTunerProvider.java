package org.tunekit.tuners.smac;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code SMAC} with NNI's class arguments {@code optimize_mode} and {@code config_dedup},
 * plus {@code seed}, {@code n_trees} (default 10), {@code n_startup_jobs} (default 5),
 * {@code random_interleave} (every k-th suggestion uniform random, default 10, 0 for none) and
 * {@code log_transform} (the forest learns log-scaled losses, default true).
 */
public final class SmacTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "SMAC";
    }

    @Override
    public String description() {
        return "SMAC: random-forest surrogate, expected improvement, local search (Hutter et al. 2011)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return SmacTuner.create(arguments);
    }
}
