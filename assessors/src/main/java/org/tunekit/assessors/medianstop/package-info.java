/** The {@code Medianstop} assessor: the median stopping rule, with per-step running medians kept incrementally. */
package org.tunekit.assessors.medianstop;
