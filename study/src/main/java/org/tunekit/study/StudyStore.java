package org.tunekit.study;

import java.time.Instant;
import java.util.List;
import org.tunekit.sdk.Parameters;

/**
 * Where one study's trials live. Each call is atomic: it is done whole or not at all, also when the program
 * is killed in the middle of it, and what it returns has been kept. Implementations are safe to call from
 * several threads; a shared one (a database several workers use) also from several processes.
 */
interface StudyStore extends AutoCloseable {

    /** Trials that ended, in the order they ended, and the position after the last of them. */
    record Ended(List<TrialRecord> trials, long cursor) {}

    /** The definition the study was created with. */
    StudyDefinition definition();

    /** True when workers of other processes may share the study, so that a silent worker's trials must be failed. */
    boolean shared();

    /** Starts the oldest enqueued parameter set no worker has taken, as a trial of {@code worker}; {@code null} when none waits. */
    TrialRecord startEnqueued(String worker, Instant now);

    /** Takes a parameter id that no trial of the study has had or will be given. */
    long takeParameterId();

    /** Starts a trial of parameters suggested under {@code parameterId} (taken from {@link #takeParameterId}). */
    TrialRecord start(long parameterId, Parameters parameters, String worker, Instant now);

    /** Adds a parameter set to run before the tuner's suggestions, after those already waiting. */
    void enqueue(Parameters parameters, Instant now);

    /**
     * Records an intermediate value of a running trial.
     *
     * @throws StudyException when the trial is not running, or already has a value at that step or a later one
     */
    TrialRecord report(int number, long step, double value, Instant now);

    /**
     * Ends a running trial.
     *
     * @param values   its objective values (empty unless it succeeded)
     * @param reported the final metric as NNI's trials report it (a number, or an object with {@code default}), or null
     * @throws StudyException when the trial is not running (it ended already, for example failed for its silent worker)
     */
    TrialRecord finish(int number, TrialState state, List<Double> values, Object reported, String message, Instant now);

    /** The trials that ended after position {@code cursor} (0 for all). */
    Ended endedSince(long cursor);

    /** Every trial, by number. */
    List<TrialRecord> trials();

    /** How many trials are running, in every worker. */
    int running();

    /** Says that {@code worker} is alive (a shared store's workers call it every few seconds). */
    void heartbeat(String worker, Instant now);

    /**
     * Fails the running trials of every worker whose last heartbeat is older than {@code silentSince}, with a
     * message naming the worker, and when {@code retry} enqueues each one's parameters again.
     *
     * @return the trials failed
     */
    List<TrialRecord> failSilentWorkers(Instant silentSince, Instant now, boolean retry);

    @Override
    void close();
}
