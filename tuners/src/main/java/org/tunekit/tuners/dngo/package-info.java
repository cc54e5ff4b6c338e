/**
 * The {@code DNGOTuner}: Bayesian optimisation with a neural-network basis after Snoek et al.,
 * "Scalable Bayesian Optimization Using Deep Neural Networks" (ICML 2015): a small tanh network
 * fitted to the observations, Bayesian linear regression on its last hidden layer, expected
 * improvement.
 */
package org.tunekit.tuners.dngo;
