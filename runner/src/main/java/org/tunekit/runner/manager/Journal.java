package org.tunekit.runner.manager;

import java.time.Instant;
import java.util.List;
import org.tunekit.runner.results.TrialStatus;

/**
 * Where a manager records an experiment as it goes; each call is on disk (or wherever the journal
 * keeps it) when it returns, so that a manager stopped at any instant can be continued from it.
 */
public interface Journal {
    /** The experiment's id. */
    String id();

    void trialStarted(int sequence, String trialJobId, long parameterId, String parameterRecord, Instant at);

    /** Where a started trial runs: kept so that a later manager can reattach to it. */
    void trialPlaced(String trialJobId, Placement placement);

    /**
     * A metric; a final one also becomes the trial's final result. One read from a file also counts as a
     * frame read from it ({@link #frameRead}), in the same write.
     */
    void metric(String trialJobId, MetricStream from, Long parameterId, String type, int sequence, String valueText, double number, Instant at);

    /** A frame read from a file that was not a metric (a request for parameters, a malformed one) was handled. */
    void frameRead(String trialJobId, MetricStream from);

    void trialEnded(String trialJobId, TrialStatus status, Integer exitCode, String message, Instant at);

    void event(String kind, String trialJobId, String text, Instant at);

    /** Every trial recorded, in order of sequence. */
    List<StoredTrial> trials();

    /** The experiment's status: RUNNING, DONE, STOPPED, ERROR. */
    void setStatus(String status, Instant ended);

    /** A journal that keeps nothing, for simulated runs. */
    static Journal none(String id) {
        return new Journal() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public void trialStarted(int sequence, String trialJobId, long parameterId, String parameterRecord, Instant at) {}

            @Override
            public void trialPlaced(String trialJobId, Placement placement) {}

            @Override
            public void metric(String trialJobId, MetricStream from, Long parameterId, String type, int sequence, String valueText, double number,
                               Instant at) {}

            @Override
            public void frameRead(String trialJobId, MetricStream from) {}

            @Override
            public void trialEnded(String trialJobId, TrialStatus status, Integer exitCode, String message, Instant at) {}

            @Override
            public void event(String kind, String trialJobId, String text, Instant at) {}

            @Override
            public List<StoredTrial> trials() {
                return List.of();
            }

            @Override
            public void setStatus(String status, Instant ended) {}
        };
    }
}
