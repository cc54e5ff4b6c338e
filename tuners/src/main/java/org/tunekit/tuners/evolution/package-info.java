/** The {@code Evolution} tuner: a steady-state evolutionary algorithm with tournament selection. */
package org.tunekit.tuners.evolution;
