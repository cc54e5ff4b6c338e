package org.tunekit.demo;

import java.util.Map;
import org.tunekit.sdk.Parameters;

/**
 * A deterministic test function to minimise (a benchmark problem of the optimisation literature),
 * with its search space in NNI's format and its known minimum. What an experiment optimises, a metric
 * and its direction, is {@code org.tunekit.sdk.objectives.Objective}.
 *
 * @param name        the name used on the command line
 * @param space       the search space (NNI's JSON shape as plain Java values)
 * @param optimum     the known minimum
 * @param function    the function
 */
public record TestFunction(String name, Map<String, Object> space, double optimum, java.util.function.ToDoubleFunction<Parameters> function) {
    /** The function's value at {@code p}. */
    public double evaluate(Parameters p) {
        return function.applyAsDouble(p);
    }
}
