/**
 * The {@code GPTuner}: Bayesian optimisation with a Gaussian process (Matérn kernel with one
 * length-scale per parameter, fitted by maximising the marginal likelihood) and an expected
 * improvement, probability of improvement or confidence-bound acquisition.
 */
package org.tunekit.tuners.gp;
