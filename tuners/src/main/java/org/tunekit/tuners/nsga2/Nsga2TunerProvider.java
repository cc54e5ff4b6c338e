package org.tunekit.tuners.nsga2;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides {@code NSGA2}, the multi-objective genetic algorithm NSGA-II (see {@link Nsga2Tuner} for
 * its class arguments).
 */
public final class Nsga2TunerProvider implements TunerProvider {

    /** Creates the provider (ServiceLoader needs a public constructor). */
    public Nsga2TunerProvider() {}

    @Override
    public String name() {
        return "NSGA2";
    }

    @Override
    public String description() {
        return "NSGA-II (Deb et al. 2002): non-dominated sorting, crowding distance, SBX crossover and polynomial mutation";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return Nsga2Tuner.create(arguments);
    }
}
