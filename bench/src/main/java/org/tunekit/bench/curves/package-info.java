/**
 * The learning-curve benchmark ({@code tunekit-bench bench-curves}): a synthetic suite of training curves
 * whose final values are known functions of their hyper-parameters, run through the real
 * {@link org.tunekit.dispatcher.MsgDispatcher} (tuner and assessor) or
 * {@link org.tunekit.dispatcher.AdvisorDispatcher} over an in-memory channel by a manager with a fixed
 * number of trial slots, to measure how many epochs early stopping saves and what it costs in regret.
 */
package org.tunekit.bench.curves;
