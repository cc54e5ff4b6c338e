/**
 * The built-in {@code TPE} tuner: the tree-structured Parzen estimator of Bergstra et al. (2011)
 * over NNI search spaces, nested choices included, with constant-liar batches and replay of its results.
 */
package org.tunekit.tuners.tpe;
