package org.tunekit.tuners.auto;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides {@code Auto} with the class arguments {@code optimize_mode}, {@code seed} and {@code max_trial_number} (see {@link AutoTuner}). */
public final class AutoTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public AutoTunerProvider() {}

    @Override
    public String name() {
        return "Auto";
    }

    @Override
    public String description() {
        return "The recommended default: GPTuner for small spaces and short budgets, TuRBO for larger spaces";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new AutoTuner(arguments);
    }
}
