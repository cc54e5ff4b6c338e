package org.tunekit.tuners.metis;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code MetisTuner} with NNI's class arguments: {@code optimize_mode},
 * {@code no_resampling}, {@code no_candidates}, {@code selection_num_starting_points},
 * {@code cold_start_num}, {@code exploration_probability}, plus {@code seed}.
 */
public final class MetisTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "MetisTuner";
    }

    @Override
    public String description() {
        return "Gaussian-process tuner choosing among exploitation, exploration and re-sampling of outliers (Metis)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return MetisTuner.create(arguments);
    }
}
