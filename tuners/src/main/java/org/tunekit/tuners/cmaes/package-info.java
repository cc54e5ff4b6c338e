/** The {@code CMAES} tuner: covariance matrix adaptation evolution strategy with IPOP restarts. */
package org.tunekit.tuners.cmaes;
