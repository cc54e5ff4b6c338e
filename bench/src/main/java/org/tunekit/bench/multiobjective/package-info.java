/**
 * {@code tunekit-bench bench-mo}: the multi-objective benchmark (ZDT1-3, DTLZ2 with three objectives and
 * a mixed discrete/continuous problem), hypervolume of each tuner's front against the true front's.
 */
package org.tunekit.bench.multiobjective;
