package org.tunekit.tuners.hyperband;

/** Objectives shared by the advisor tests. */
final class FakeAdvisorContextTestSupport {
    private FakeAdvisorContextTestSupport() {}

    /** A metric that grows with {@code x} and with the budget, as a learning curve would. */
    static double objective(FakeAdvisorContext.Sent s) {
        return s.parameters().getDouble("x") * (1 - 1 / (1 + s.budget()));
    }
}
