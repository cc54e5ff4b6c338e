package org.tunekit.sdk;

/**
 * How an {@link Advisor} answers the manager. Thread-safe.
 */
public interface AdvisorContext {

    /** Hands out the next parameter id (ids are unique within the experiment). */
    long newParameterId();

    /** Sends a new trial's parameters ({@code TR}). */
    void sendTrial(long parameterId, Parameters parameters);

    /** Answers a multi-phase trial's request with its next parameters ({@code SP}); {@code null} when there are none. */
    void sendTrialParameters(String trialJobId, int parameterIndex, long parameterId, Parameters parameters);

    /** Tells the manager there are no more trials for now ({@code NO}). */
    void noMoreTrials(long parameterId);

    /** Asks the manager to stop a running trial ({@code KI}). */
    void killTrial(String trialJobId);

    /** Whether intermediate results of stopped trials should count as final ({@code NNI_INCLUDE_INTERMEDIATE_RESULTS}). */
    boolean includeIntermediateResults();
}
