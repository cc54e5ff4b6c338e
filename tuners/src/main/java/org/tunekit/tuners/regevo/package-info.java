/** The {@code RegularizedEvolutionTuner}: aging evolution after Real et al. (2019). */
package org.tunekit.tuners.regevo;
