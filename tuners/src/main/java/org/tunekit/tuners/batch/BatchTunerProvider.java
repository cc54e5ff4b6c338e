package org.tunekit.tuners.batch;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides the {@code BatchTuner}. It takes no class arguments. */
public final class BatchTunerProvider implements TunerProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public BatchTunerProvider() {}

    @Override
    public String name() {
        return "BatchTuner";
    }

    @Override
    public String description() {
        return "Runs the parameter sets listed in the one choice 'combine_params', in order";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new BatchTuner(arguments);
    }
}
