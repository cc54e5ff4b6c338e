package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * {@code normal [mu, sigma]} or, with {@code q > 0}, {@code qnormal [mu, sigma, q]}.
 *
 * @param name  the key
 * @param path  the path
 * @param mu    mean
 * @param sigma standard deviation, above 0
 * @param q     quantum, or 0
 */
public record Normal(String name, String path, double mu, double sigma, double q) implements Continuous {
    @Override public String nniType() { return Continuous.typeName("normal", q); }
    @Override public boolean logScale() { return false; }
    @Override public boolean bounded() { return false; }
    @Override public double low() { return Double.NEGATIVE_INFINITY; }
    @Override public double high() { return Double.POSITIVE_INFINITY; }
    @Override public double rawFromUnit(double u) { return mu + sigma * Gaussian.inverseCdf(u); }
    @Override public double toUnit(double value) { return Gaussian.cdf((value - mu) / sigma); }
    @Override public double rawSample(RandomGenerator rng) { return mu + sigma * rng.nextGaussian(); }
}
