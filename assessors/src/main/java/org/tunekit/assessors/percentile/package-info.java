/**
 * The {@code Percentile} assessor: stops a trial whose best value so far is worse than a percentile of
 * the completed trials' values at the same step.
 */
package org.tunekit.assessors.percentile;
