package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The state of one run of the manager, shared by the parts that do its jobs: the trials it knows of,
 * its counters, its limits as they stand, and how it is ending. Read and changed on the manager's thread only.
 */
final class RunState {
    final Map<String, ManagedTrial> running = new LinkedHashMap<>();
    /** Parameters in, waiting for a slot: trials lost first, then trials added by hand, then the tuner's. */
    final Deque<ManagedTrial> pending = new ArrayDeque<>();
    /** Trials added by hand that wait for their parameter id (given when no request to the dispatcher is outstanding). */
    final Deque<ManagerEvent.TrialAdded> toAdd = new ArrayDeque<>();
    final Instant start;
    /** Trials asked of the dispatcher and not yet sent. */
    int requested;
    /** The tuner said it has no more parameters ({@code NO}). */
    boolean noMoreTrials;
    /** Slots freed since the tuner said {@code NO}, offered to it again. */
    int requestCredit;
    /** Trials started (or taken back) in the experiment: the budget used. */
    long used;
    int nextSequence;
    /** The largest parameter id the dispatcher has given or been told of: an added trial's id comes after it. */
    long lastParameterId = -1;
    boolean stopping;
    ExperimentManager.Outcome outcome = ExperimentManager.Outcome.DONE;
    String error;
    Instant deadline;
    int trialConcurrency;
    long maxTrialNumber;
    private final Clock clock;

    RunState(ManagerSettings settings, Clock clock) {
        this.clock = clock;
        this.start = clock.instant();
        this.deadline = settings.maxExperimentDuration() == null ? null : start.plus(settings.maxExperimentDuration());
        this.trialConcurrency = settings.trialConcurrency();
        this.maxTrialNumber = settings.maxTrialNumber();
    }

    /** True while the dispatcher may be asked for more trials: not stopping, within the time and the budget, and the tuner not done. */
    boolean canRequest() {
        if (stopping || (deadline != null && clock.instant().isAfter(deadline))) {
            return false;
        }
        if (maxTrialNumber > 0 && used + pending.size() + toAdd.size() + requested >= maxTrialNumber) {
            return false;
        }
        return !noMoreTrials || requestCredit > 0;
    }

    /** True when nothing runs and nothing more will: the loop ends. */
    boolean finished() {
        return running.isEmpty() && (stopping || (pending.isEmpty() && requested == 0 && !canRequest()));
    }

    ManagerListener.Snapshot snapshot() {
        return new ManagerListener.Snapshot(running.size(), pending.size(), used, maxTrialNumber, Duration.between(start, clock.instant()),
                deadline == null ? null : Duration.between(clock.instant(), deadline));
    }
}
