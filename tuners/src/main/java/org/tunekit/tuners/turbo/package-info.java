/**
 * The {@code TuRBO} tuner: trust-region Bayesian optimisation for spaces of many parameters, after
 * Eriksson et al., "Scalable Global Optimization via Local Bayesian Optimization" (NeurIPS 2019),
 * on the Gaussian process of {@code org.tunekit.tuners.gp}.
 */
package org.tunekit.tuners.turbo;
