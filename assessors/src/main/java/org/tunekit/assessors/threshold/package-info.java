/** The {@code Threshold} assessor: stops a trial whose latest intermediate value leaves fixed bounds. */
package org.tunekit.assessors.threshold;
