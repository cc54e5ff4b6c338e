package org.tunekit.sdk.spi;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;

/** Creates an {@link Assessor} from an experiment config's class arguments. */
public interface AssessorProvider extends AlgorithmProvider {
    /**
     * Creates the assessor.
     *
     * @throws org.tunekit.sdk.InvalidClassArgumentException naming a bad argument
     */
    Assessor create(ClassArguments arguments);
}
