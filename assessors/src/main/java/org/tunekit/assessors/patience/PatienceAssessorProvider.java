package org.tunekit.assessors.patience;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Provides {@code Patience}: class arguments {@code patience} (required, steps), {@code min_delta}
 * (default 0), {@code optimize_mode} (default {@code maximize}) and {@code wrapped} (optional
 * {@code {"name": ..., "classArgs": {...}}} of another built-in assessor).
 */
public final class PatienceAssessorProvider implements AssessorProvider {

    /** Creates the provider (for {@link java.util.ServiceLoader}). */
    public PatienceAssessorProvider() {}

    @Override
    public String name() {
        return "Patience";
    }

    @Override
    public String description() {
        return "Stops a trial with no improvement by more than min_delta for `patience` steps; else asks a wrapped assessor";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return PatienceAssessor.fromArguments(arguments);
    }
}
