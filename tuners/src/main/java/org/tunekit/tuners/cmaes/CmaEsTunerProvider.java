package org.tunekit.tuners.cmaes;

import java.util.List;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Provides the {@code CMAES} tuner. Class arguments: {@code optimize_mode}, {@code seed},
 * {@code sigma0} (0.3), {@code popsize} (4 + 3 ln n), {@code restarts} (9), {@code start}
 * ({@code centre} or {@code random}: the first mean).
 */
public final class CmaEsTunerProvider implements TunerProvider {
    @Override
    public String name() {
        return "CMAES";
    }

    @Override
    public List<String> aliases() {
        return List.of("CMA-ES");
    }

    @Override
    public String description() {
        return "Covariance matrix adaptation evolution strategy with IPOP restarts";
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        return CmaEsTuner.create(arguments);
    }
}
