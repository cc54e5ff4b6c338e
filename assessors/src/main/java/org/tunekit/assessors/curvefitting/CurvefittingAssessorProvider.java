package org.tunekit.assessors.curvefitting;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides {@code Curvefitting}: class arguments {@code epoch_num} (required, the total number of epochs),
 * {@code start_step} (default 6), {@code threshold} (default 0.95), {@code gap} (default 1) and
 * {@code optimize_mode} (default {@code maximize}).
 */
public final class CurvefittingAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public CurvefittingAssessorProvider() {}

    @Override
    public String name() {
        return "Curvefitting";
    }

    @Override
    public String description() {
        return "Learning-curve extrapolation with an ensemble of parametric curves; stops trials unlikely to near the best final value";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return CurvefittingAssessor.fromArguments(arguments);
    }
}
