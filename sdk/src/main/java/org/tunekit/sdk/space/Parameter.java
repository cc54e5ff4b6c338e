package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * One parameter of a search space. There is one type per kind: {@link Choice} ({@code choice},
 * possibly nested), {@link RandInt} ({@code randint}), and the continuous {@link Uniform},
 * {@link LogUniform}, {@link Normal} and {@link LogNormal}, each optionally quantised by {@code q}
 * ({@code quniform}, {@code qloguniform}, {@code qnormal}, {@code qlognormal}).
 */
public sealed interface Parameter permits Choice, RandInt, Continuous {

    /** The parameter's key in its (sub-)space. */
    String name();

    /** Where the parameter sits, such as {@code lr} or, inside a nested choice, {@code model/tree/depth}. */
    String path();

    /** NNI's name of the type, such as {@code "qloguniform"}. */
    String nniType();

    /** Draws a value from the parameter's prior distribution, as NNI's random tuner does. */
    Object sample(RandomGenerator rng);

    /** True when {@code value} is a value this parameter can take. */
    boolean accepts(Object value);

    /**
     * The value at quantile {@code u} in [0, 1] of the parameter's prior: the inverse CDF, then
     * quantisation and clipping. A {@link Choice} maps [0, 1) onto its options in equal parts.
     */
    Object fromUnit(double u);
}
