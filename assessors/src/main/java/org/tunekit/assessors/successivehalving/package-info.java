/**
 * The {@code SuccessiveHalving} assessor: asynchronous successive halving (ASHA, Li et al. 2018) as an
 * early stopper.
 */
package org.tunekit.assessors.successivehalving;
