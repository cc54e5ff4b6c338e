package org.tunekit.bench.quality;

/**
 * Which run: one tuner, one function, one mode, one seed.
 *
 * @param tuner    the tuner's label
 * @param function the function's name
 * @param mode     sequential or batch
 * @param seed     the seed (the tuner's {@code seed} class argument)
 */
record RunKey(String tuner, String function, Mode mode, long seed) {}
