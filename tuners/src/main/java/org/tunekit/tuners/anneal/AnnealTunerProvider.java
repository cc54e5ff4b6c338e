package org.tunekit.tuners.anneal;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides the {@code Anneal} tuner. Class arguments: {@code optimize_mode}, {@code seed}. */
public final class AnnealTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "Anneal";
    }

    @Override
    public String description() {
        return "Annealing-style search around the best results with a neighbourhood that narrows as results accumulate";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return AnnealTuner.create(arguments);
    }
}
