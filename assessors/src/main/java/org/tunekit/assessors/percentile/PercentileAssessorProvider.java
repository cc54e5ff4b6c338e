package org.tunekit.assessors.percentile;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides {@code Percentile}: class arguments {@code percentile} (0-100, default 50),
 * {@code n_startup_trials} (default 5), {@code n_warmup_steps} (default 0, or {@code "auto"}: until the
 * step from which the values of the first {@code max(n_startup_trials, 10)} completed trials predict
 * their final ranking), {@code interval_steps} (default 1) and {@code optimize_mode} (default
 * {@code maximize}).
 */
public final class PercentileAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public PercentileAssessorProvider() {}

    @Override
    public String name() {
        return "Percentile";
    }

    @Override
    public String description() {
        return "Stops a trial whose best value so far is worse than a percentile of completed trials' values at the same step";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return PercentileAssessor.fromArguments(arguments);
    }
}
