package org.tunekit.runner.manager;

import java.time.Instant;
import org.tunekit.runner.results.TrialStatus;

/** A trial the manager knows of: waiting to start, or running. Read and changed on the manager's thread only. */
final class ManagedTrial {
    final String parameterRecord;
    final long parameterId;
    String jobId;
    int sequence;
    Instant started;
    Instant lastContact;
    /** How many parameter records it was sent (the first is its own, later ones the tuner made when it asked again). */
    int parametersSent;
    /** It reported a metric. */
    boolean reported;
    boolean finalReported;
    boolean lastAskedByFile;
    /** How it ends, once the manager asked it to stop; {@code null} while it is not being stopped. */
    TrialStatus stopAs;
    String stopReason;
    /** What was wrong with what it reported, or {@code null}: it cannot succeed. */
    String protocolProblem;
    /** Parameters of a trial that was lost, waiting to run again. */
    boolean again;
    /** Parameters added by hand. */
    boolean added;

    ManagedTrial(String parameterRecord, long parameterId) {
        this.parameterRecord = parameterRecord;
        this.parameterId = parameterId;
    }
}
