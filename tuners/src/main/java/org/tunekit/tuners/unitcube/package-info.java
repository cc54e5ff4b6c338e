/**
 * What the tuners that search the unit cube of {@link org.tunekit.sdk.space.EncodedSpace} share:
 * {@link org.tunekit.tuners.unitcube.UnitCubeTuner} keeps the observations, the pending suggestions,
 * duplicate suppression, exhaustion of finite spaces and the checkpoint line format, and
 * {@link org.tunekit.tuners.unitcube.ScrambledSobol} is a seeded, digitally shifted Sobol sequence.
 */
package org.tunekit.tuners.unitcube;
