package org.tunekit.examples.tuner;

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** {@link CoordinateSearchTuner} as {@code CoordinateSearch}, listed in META-INF/services. */
public final class CoordinateSearchTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "CoordinateSearch";
    }

    @Override
    public String description() {
        return "compass search in the encoded unit cube, halving its step after a round without improvement";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new CoordinateSearchTuner(arguments);
    }
}
