/**
 * The {@code MetisTuner}: Gaussian-process optimisation after Li et al., "Metis: Robustly Tuning
 * Tail Latencies of Cloud Systems" (USENIX ATC 2018), choosing each round among an exploitation,
 * an exploration and re-sampling candidates by their expected gain.
 */
package org.tunekit.tuners.metis;
