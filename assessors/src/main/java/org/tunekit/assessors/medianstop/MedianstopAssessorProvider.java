package org.tunekit.assessors.medianstop;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides the {@code Medianstop} assessor. Class arguments: {@code optimize_mode}
 * ({@code "maximize"}, the default, or {@code "minimize"}) and {@code start_step} (default 0; beyond NNI's
 * values, {@code "auto"}: from the step where the first 10 completed trials' values predict their final
 * ranking).
 */
public final class MedianstopAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public MedianstopAssessorProvider() {}

    @Override
    public String name() {
        return "Medianstop";
    }

    @Override
    public String description() {
        return "Median stopping rule: stops a trial whose best result is worse than the median running average of completed trials";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return new MedianstopAssessor(arguments);
    }
}
