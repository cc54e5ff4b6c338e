package org.tunekit.runner.manager;

/**
 * One trial to start.
 *
 * @param experimentId    the experiment's id ({@code NNI_EXP_ID})
 * @param trialJobId      the trial's job id ({@code NNI_TRIAL_JOB_ID})
 * @param sequence        its number in the experiment, from 0 ({@code NNI_TRIAL_SEQ_ID})
 * @param parameterId     the id of its parameters
 * @param parameterRecord its parameters as the tuner sent them ({@code TR} payload)
 */
public record TrialLaunch(String experimentId, String trialJobId, int sequence, long parameterId, String parameterRecord) {}
