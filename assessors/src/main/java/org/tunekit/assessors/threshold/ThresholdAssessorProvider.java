package org.tunekit.assessors.threshold;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides {@code Threshold}: class arguments {@code lower} and/or {@code upper} (numbers) and
 * {@code n_warmup_steps} (default 0).
 */
public final class ThresholdAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public ThresholdAssessorProvider() {}

    @Override
    public String name() {
        return "Threshold";
    }

    @Override
    public String description() {
        return "Stops a trial whose latest intermediate value falls outside [lower, upper] or is NaN";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return ThresholdAssessor.fromArguments(arguments);
    }
}
