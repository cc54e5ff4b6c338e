package org.tunekit.runner.manager;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.runner.results.TrialStatus;

/**
 * What the manager's loop takes from its one queue. Made on any thread (the dispatcher's, the reply
 * pump's, a training service's, a steering thread, a shutdown hook); handled on the manager's thread only.
 */
sealed interface ManagerEvent {
    /** A command the dispatcher sent. */
    record Reply(Command command) implements ManagerEvent {}

    /** The dispatcher's thread ended with this status. */
    record DispatcherExited(int status) implements ManagerEvent {}

    /** A trial asks for parameters: see {@link TrialEvents#parameterRequest}. */
    record ParameterRequest(String jobId, boolean byFile, int index) implements ManagerEvent {}

    /** A trial's metric, which its sender waits on until {@code recorded} completes. */
    record MetricReceived(String jobId, String text, MetricStream from, CompletableFuture<Void> recorded) implements ManagerEvent {}

    /** A trial talks wrongly: see {@link TrialEvents#problem}. */
    record Problem(String jobId, String text) implements ManagerEvent {}

    /** A trial's process ended with this exit status. */
    record TrialExited(String jobId, int exitCode) implements ManagerEvent {}

    /** A trial's job ended without an exit status: see {@link TrialEvents#ended}. */
    record TrialEnded(String jobId, TrialStatus status, String reason) implements ManagerEvent {}

    /** The experiment is asked to stop. */
    record StopRequested(String reason) implements ManagerEvent {}

    /** New limits; {@code done} completes with what changed. */
    record LimitsChanged(ExperimentManager.Limits limits, CompletableFuture<String> done) implements ManagerEvent {}

    /** A person stops one trial; {@code done} completes once it is asked to stop. */
    record TrialStopRequested(String jobId, String reason, CompletableFuture<String> done) implements ManagerEvent {}

    /** A person adds a trial; {@code done} completes with the id its parameters were given. */
    record TrialAdded(Map<String, Object> parameters, String note, CompletableFuture<AddedTrial> done) implements ManagerEvent {}
}
