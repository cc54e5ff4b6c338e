/** The {@code Sobol} tuner: a seeded, scrambled Sobol quasi-random sequence over the search space. */
package org.tunekit.tuners.sobol;
