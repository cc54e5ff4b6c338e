/**
 * Pieces the built-in tuners share: canonical keys of parameter sets, so that a tuner can tell a
 * point it has already suggested (or been told about) from a new one, and the framing (magic number,
 * version, file) of a tuner's binary checkpoint.
 */
package org.tunekit.tuners.common;
