/**
 * The {@code Curvefitting} assessor: extrapolates a trial's learning curve with an ensemble of
 * parametric curve models (after Domhan, Springenberg and Hutter, IJCAI 2015) and stops the trial when
 * its predicted final value is unlikely to come near the best final value seen so far.
 */
package org.tunekit.assessors.curvefitting;
