/** The {@code NSGA2} tuner: the elitist multi-objective genetic algorithm NSGA-II of Deb et al. (2002). */
package org.tunekit.tuners.nsga2;
