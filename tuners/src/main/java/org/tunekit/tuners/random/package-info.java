/** The {@code Random} tuner: draws from the search space's prior, never suggesting a point twice when it can help it. */
package org.tunekit.tuners.random;
