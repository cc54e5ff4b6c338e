/**
 * The {@code GridSearch} tuner: NNI's progressively refined grid. Choices and randints are
 * enumerated completely; every other parameter starts at the median of its prior and each further
 * round of the grid halves the gaps between the prior quantiles already used.
 */
package org.tunekit.tuners.grid;
