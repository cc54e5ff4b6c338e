/**
 * The quality benchmark ({@code tunekit-bench bench}): every tuner named runs the suite of test functions
 * (branin, hartmann6, ackley5, mixed, nested) in sequential and batch mode over many seeds, driven
 * in-process exactly as the dispatcher drives it, and the best-so-far regret is written as a CSV, a
 * markdown summary beside NNI's published figures, and SVG convergence plots.
 */
package org.tunekit.bench.quality;
