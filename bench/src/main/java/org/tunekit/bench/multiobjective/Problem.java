package org.tunekit.bench.multiobjective;

import java.util.List;
import java.util.function.Function;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A multi-objective test problem: all objectives are minimised.
 *
 * @param name            its name on the command line and in results
 * @param description     one line saying what it is (variables, where its front lies)
 * @param space           the search space
 * @param metrics         the metric keys of the objectives, in order
 * @param function        the objective values of a parameter set, in the order of {@code metrics}
 * @param reference       the reference point of the hypervolume
 * @param trueHypervolume the hypervolume of the true Pareto front with respect to {@code reference}
 */
record Problem(String name, String description, SearchSpace space, List<String> metrics, Function<Parameters, double[]> function,
               double[] reference, double trueHypervolume) {

    double[] evaluate(Parameters p) {
        return function.apply(p);
    }
}
