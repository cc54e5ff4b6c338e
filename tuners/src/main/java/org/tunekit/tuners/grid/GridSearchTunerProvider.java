package org.tunekit.tuners.grid;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides the {@code GridSearch} tuner. Class argument: {@code optimize_mode} (accepted, not used). */
public final class GridSearchTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public GridSearchTunerProvider() {}

    @Override
    public String name() {
        return "GridSearch";
    }

    @Override
    public String description() {
        return "Grid search in NNI's order: choices and randints in full, other parameters on ever finer prior quantiles";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new GridSearchTuner(arguments);
    }
}
