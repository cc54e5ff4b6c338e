/**
 * The {@code SMAC} tuner: sequential model-based optimisation with a random-forest surrogate
 * (mean and variance across trees), expected improvement maximised by local search in the
 * one-exchange neighbourhood, and interleaved random suggestions.
 */
package org.tunekit.tuners.smac;
