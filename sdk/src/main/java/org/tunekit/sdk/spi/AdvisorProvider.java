package org.tunekit.sdk.spi;

import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.ClassArguments;

/** Creates an {@link Advisor} from an experiment config's class arguments. */
public interface AdvisorProvider extends AlgorithmProvider {
    /**
     * Creates the advisor.
     *
     * @throws org.tunekit.sdk.InvalidClassArgumentException naming a bad argument
     */
    Advisor create(ClassArguments arguments);
}
