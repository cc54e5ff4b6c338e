package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * {@code lognormal [mu, sigma]} or, with {@code q > 0}, {@code qlognormal [mu, sigma, q]}:
 * the logarithm is normal.
 *
 * @param name  the key
 * @param path  the path
 * @param mu    mean of the logarithm
 * @param sigma standard deviation of the logarithm, above 0
 * @param q     quantum, or 0
 */
public record LogNormal(String name, String path, double mu, double sigma, double q) implements Continuous {
    @Override public String nniType() { return Continuous.typeName("lognormal", q); }
    @Override public boolean logScale() { return true; }
    @Override public boolean bounded() { return false; }
    @Override public double low() { return 0; }
    @Override public double high() { return Double.POSITIVE_INFINITY; }
    @Override public double rawFromUnit(double u) { return Math.exp(mu + sigma * Gaussian.inverseCdf(u)); }
    @Override public double toUnit(double value) { return Gaussian.cdf((Math.log(value) - mu) / sigma); }
    @Override public double rawSample(RandomGenerator rng) { return Math.exp(mu + sigma * rng.nextGaussian()); }
}
