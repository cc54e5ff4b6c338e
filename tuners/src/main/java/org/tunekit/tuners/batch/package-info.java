/** The {@code BatchTuner}: hands out a list of whole parameter sets, in order. */
package org.tunekit.tuners.batch;
