/**
 * The {@code Patience} assessor: stops a trial that has not improved for a number of steps, and
 * otherwise defers to an optional wrapped built-in assessor.
 */
package org.tunekit.assessors.patience;
