/**
 * What the tuners that search the unit cube of {@link org.tunekit.sdk.space.EncodedSpace} share:
 * {@link org.tunekit.tuners.unitcube.UnitCubeTuner}, the shell that keeps the history (observations
 * and pending suggestions), suppresses duplicates and resumes by replaying results; the unit cube
 * of a space (decoding, canonical sets); candidate points and training sets for model-based
 * tuners; and {@link org.tunekit.tuners.unitcube.ScrambledSobol}, a seeded, digitally shifted
 * Sobol sequence.
 */
package org.tunekit.tuners.unitcube;
