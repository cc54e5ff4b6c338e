package org.tunekit.examples.assessor;

import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AssessorProvider;

/** {@link NoImprovementAssessor} as {@code NoImprovement}, listed in META-INF/services. */
public final class NoImprovementAssessorProvider implements AssessorProvider {
    @Override
    public String name() {
        return "NoImprovement";
    }

    @Override
    public String description() {
        return "stops a trial with no improvement over min_delta for patience steps, or past a threshold";
    }

    @Override
    public Assessor create(ClassArguments arguments) {
        return new NoImprovementAssessor(arguments);
    }
}
