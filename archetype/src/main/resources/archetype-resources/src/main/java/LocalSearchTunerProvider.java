package ${package};

import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/** Makes {@link LocalSearchTuner} known to tunekit as {@code LocalSearch} (listed in META-INF/services). */
public final class LocalSearchTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "LocalSearch";
    }

    @Override
    public String description() {
        return "random search, then Gaussian steps around the best point";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return new LocalSearchTuner(arguments);
    }
}
