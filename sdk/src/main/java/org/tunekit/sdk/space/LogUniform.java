package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * {@code loguniform [low, high]} or, with {@code q > 0}, {@code qloguniform [low, high, q]}:
 * uniform in the logarithm.
 *
 * @param name the key
 * @param path the path
 * @param low  lower bound, above 0
 * @param high upper bound, above {@code low}
 * @param q    quantum, or 0
 */
public record LogUniform(String name, String path, double low, double high, double q) implements Continuous {
    @Override public String nniType() { return Continuous.typeName("loguniform", q); }
    @Override public boolean logScale() { return true; }
    @Override public boolean bounded() { return true; }
    @Override public double rawFromUnit(double u) { return Math.exp(Math.log(low) + (Math.log(high) - Math.log(low)) * u); }
    @Override public double toUnit(double value) { return (Math.log(value) - Math.log(low)) / (Math.log(high) - Math.log(low)); }
    @Override public double rawSample(RandomGenerator rng) { return Math.exp(Math.log(low) + (Math.log(high) - Math.log(low)) * rng.nextDouble()); }
}
