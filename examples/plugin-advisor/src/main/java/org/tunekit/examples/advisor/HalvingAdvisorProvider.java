package org.tunekit.examples.advisor;

import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.AdvisorProvider;

/** {@link HalvingAdvisor} as {@code Halving}, listed in META-INF/services. */
public final class HalvingAdvisorProvider implements AdvisorProvider {
    @Override
    public String name() {
        return "Halving";
    }

    @Override
    public String description() {
        return "successive halving in repeated brackets; budgets in TRIAL_BUDGET";
    }

    @Override
    public Advisor create(ClassArguments arguments) {
        return new HalvingAdvisor(arguments);
    }
}
