package org.tunekit.tuners.hyperband;

import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AdvisorProvider;

/**
 * Provides the {@code Hyperband} advisor. Class arguments (NNI's): {@code R} (the largest budget,
 * default 60), {@code eta} (default 3), {@code optimize_mode} (default {@code maximize}),
 * {@code exec_mode} ({@code parallelism}, the default, or {@code serial}); beyond NNI's,
 * {@code min_budget} (the smallest budget a bracket may start at, default 1, or {@code "auto"}: found from
 * the intermediate results of the first {@code n_startup_trials}, default 10, full-budget trials) and
 * {@code seed}.
 */
public final class HyperbandProvider implements AdvisorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public HyperbandProvider() {}

    @Override
    public String name() {
        return "Hyperband";
    }

    @Override
    public String description() {
        return "Hyperband: brackets of successive halving over random configurations, budgets in TRIAL_BUDGET";
    }

    @Override
    public Advisor create(ClassArguments arguments) {
        return HyperbandAdvisor.create(arguments);
    }
}
