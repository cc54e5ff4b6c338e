/**
 * The trial side of an experiment, for trials written in Java: {@link org.tunekit.sdk.trial.TrialClient}
 * gets a trial's parameters from the manager that started it and reports its results, over the
 * channels NNI's own trial library uses (NNI 3's HTTP channel, NNI 2's parameter and metrics files),
 * or standalone when no manager started it. Like the rest of the SDK it depends on nothing but the JDK.
 */
package org.tunekit.sdk.trial;
