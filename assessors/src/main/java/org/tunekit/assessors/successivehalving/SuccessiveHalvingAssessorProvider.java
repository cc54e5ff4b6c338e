package org.tunekit.assessors.successivehalving;

import java.util.List;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides {@code SuccessiveHalving} (alias {@code ASHA}): class arguments {@code min_resource}
 * (the first rung, in steps, or {@code "auto"}, the default: the step from which the values of the
 * first {@code n_startup_trials} completed trials, default 10, predict their final ranking),
 * {@code reduction_factor} (default 3), {@code min_early_stopping_rate} (default 0) and
 * {@code optimize_mode} (default {@code maximize}).
 */
public final class SuccessiveHalvingAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public SuccessiveHalvingAssessorProvider() {}

    @Override
    public String name() {
        return "SuccessiveHalving";
    }

    @Override
    public List<String> aliases() {
        return List.of("ASHA");
    }

    @Override
    public String description() {
        return "Asynchronous successive halving: at rungs min_resource × η^k steps (min_resource found from the first trials by default), only the top 1/η of the values seen there go on";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return SuccessiveHalvingAssessor.fromArguments(arguments);
    }
}
