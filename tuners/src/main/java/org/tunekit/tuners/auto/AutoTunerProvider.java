package org.tunekit.tuners.auto;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides {@code Auto} with the class arguments {@code optimize_mode} and {@code seed} (see {@link AutoTuner}). */
public final class AutoTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public AutoTunerProvider() {}

    @Override
    public String name() {
        return "Auto";
    }

    @Override
    public String description() {
        return "The recommended default: Gaussian-process optimisation, handing over to TuRBO's trust region in larger spaces as results accumulate";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new AutoTuner(arguments);
    }
}
