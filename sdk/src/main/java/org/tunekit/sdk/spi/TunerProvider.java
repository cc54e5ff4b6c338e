package org.tunekit.sdk.spi;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;

/** Creates a {@link Tuner} from an experiment config's class arguments. */
public interface TunerProvider extends AlgorithmProvider {
    /**
     * Creates the tuner.
     *
     * @throws org.tunekit.sdk.InvalidClassArgumentException naming a bad argument
     */
    Tuner create(ClassArguments arguments);
}
