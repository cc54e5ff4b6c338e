package org.tunekit.tuners.dngo;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code DNGOTuner} with NNI's class arguments: {@code optimize_mode},
 * {@code sample_size}, {@code trials_per_update}, {@code num_epochs_per_training}, plus
 * {@code seed}.
 */
public final class DngoTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "DNGOTuner";
    }

    @Override
    public String description() {
        return "Bayesian optimisation with a neural-network basis and Bayesian linear regression (DNGO)";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return DngoTuner.create(arguments);
    }
}
