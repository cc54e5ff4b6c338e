package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * {@code uniform [low, high]} or, with {@code q > 0}, {@code quniform [low, high, q]}.
 *
 * @param name the key
 * @param path the path
 * @param low  lower bound
 * @param high upper bound, above {@code low}
 * @param q    quantum, or 0
 */
public record Uniform(String name, String path, double low, double high, double q) implements Continuous {
    @Override public String nniType() { return Continuous.typeName("uniform", q); }
    @Override public boolean logScale() { return false; }
    @Override public boolean bounded() { return true; }
    @Override public double rawFromUnit(double u) { return low + (high - low) * u; }
    @Override public double toUnit(double value) { return (value - low) / (high - low); }
    @Override public double rawSample(RandomGenerator rng) { return low + (high - low) * rng.nextDouble(); }
}
