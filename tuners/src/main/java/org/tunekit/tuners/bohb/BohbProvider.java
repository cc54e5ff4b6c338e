package org.tunekit.tuners.bohb;

import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AdvisorProvider;

/**
 * Provides the {@code BOHB} advisor. Class arguments (NNI's): {@code optimize_mode} (default
 * {@code maximize}), {@code min_budget} (1), {@code max_budget} (3), {@code eta} (3),
 * {@code min_points_in_model} (default: the number of encoded coordinates + 1), {@code top_n_percent} (15),
 * {@code num_samples} (64), {@code random_fraction} (0.33), {@code bandwidth_factor} (3),
 * {@code min_bandwidth} (0.001), and {@code seed}. Beyond NNI's, {@code min_budget} may be {@code "auto"}:
 * found from the intermediate results of the first {@code n_startup_trials} (default 10) full-budget trials.
 */
public final class BohbProvider implements AdvisorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public BohbProvider() {}

    @Override
    public String name() {
        return "BOHB";
    }

    @Override
    public String description() {
        return "BOHB: Hyperband brackets with configurations from good/bad kernel densities per budget";
    }

    @Override
    public Advisor create(ClassArguments arguments) {
        return BohbAdvisor.create(arguments);
    }
}
