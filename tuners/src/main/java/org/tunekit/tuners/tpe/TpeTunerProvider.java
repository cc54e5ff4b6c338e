package org.tunekit.tuners.tpe;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Provides the {@code TPE} tuner (tree-structured Parzen estimator) under NNI's name and class arguments. */
public final class TpeTunerProvider implements TunerProvider {

    /** Creates the provider (ServiceLoader needs a public constructor). */
    public TpeTunerProvider() {}

    @Override
    public String name() {
        return "TPE";
    }

    @Override
    public String description() {
        return "Tree-structured Parzen estimator (Bergstra et al. 2011) with constant-liar batches";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new TpeTuner(TpeSettings.from(arguments));
    }
}
