package org.tunekit.runner.manager;

import java.io.IOException;
import java.time.Duration;

/**
 * Where an experiment's trials run: processes on this machine, simulated trials, and behind the same
 * calls other machines or a cluster. The {@link ExperimentManager} decides what runs and when; a
 * training service only starts, talks to and stops trials, and reports what they do through the
 * {@link TrialEvents} it is {@linkplain #open opened} with.
 *
 * <p>Every method is called on the manager's thread. Events may be reported from any thread; those
 * reported on the manager's thread (from {@link #poll} or {@link #collect}) take effect before the
 * call returns.
 *
 * <p>A trial may outlive the manager (a runner killed with {@code kill -9}). What {@link #start}
 * returns is kept in the experiment's store, so that a later manager can {@link #reattach} to the
 * trial by it instead of running its parameters again.
 */
public interface TrainingService extends AutoCloseable {
    /** Where trials run, for messages ("this machine"). */
    String describe();

    /**
     * Checks, before anything starts, that the experiment's trials can be placed at all (for example
     * that the machine has the GPUs a trial asks for).
     *
     * @throws IllegalArgumentException naming what cannot be satisfied
     */
    default void check() {}

    /** Called once, before the first trial: where the trials' events go. */
    void open(TrialEvents events) throws IOException;

    /**
     * True when a trial could start now; false while what a trial needs is taken (a GPU), and the
     * trials wait in their order. The manager records a trial as started only after a yes.
     */
    default boolean canStart() {
        return true;
    }

    /**
     * Starts one trial; called after {@link #canStart} said yes.
     *
     * @return where it runs, kept in the store
     * @throws IOException when the trial cannot be started
     */
    Placement start(TrialLaunch trial) throws IOException;

    /** Gives a running trial parameters: its own on a live channel, or more for a multi-phase trial. */
    void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile);

    /** Asks a trial to stop within {@code grace}; its end still comes as {@link TrialEvents#exited}. */
    void stop(String trialJobId, Duration grace);

    /**
     * Called on every turn of the manager's loop: a service that watches files or remote state
     * reports what is new here.
     */
    default void poll() {}

    /**
     * Called when the manager handles a trial's exit, before its end is recorded: reports (at once)
     * what the trial left that was not read yet, and frees what it held.
     */
    default void collect(String trialJobId) {}

    /** How long the manager may wait for an event before calling {@link #poll} again. */
    default Duration pollInterval() {
        return Duration.ofMillis(250);
    }

    /**
     * True for trials that only move when the manager polls (simulations): the manager then waits, after
     * each command it posts, until the dispatcher has handled it and takes its whole answer, so that a run
     * depends on its seeds alone and not on thread timing.
     */
    default boolean lockStep() {
        return false;
    }

    /**
     * True when the service sees every request of a trial for its parameters, so that a trial that
     * ended without asking can be told to have not run them.
     */
    default boolean seesParameterRequests() {
        return false;
    }

    /**
     * A trial a previous manager started and recorded as running: takes it back if it still runs
     * (its events follow as for any trial), else ends whatever is left of it.
     *
     * @param trial     what the store holds of it
     * @return whether the trial still runs under this service's watch, and what was done
     */
    Reattached reattach(StoredTrial trial);

    /**
     * What {@link #reattach} found.
     *
     * @param running true when the trial runs on and this service now reports its events
     * @param note    what was done (for the experiment's events), or {@code null}
     */
    record Reattached(boolean running, String note) {
        /** The trial is gone; nothing was left of it. */
        public static final Reattached GONE = new Reattached(false, null);
    }

    /** Ends every trial at once: the manager is ending. */
    @Override
    void close();
}
