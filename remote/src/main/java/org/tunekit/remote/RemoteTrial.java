package org.tunekit.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.runner.TrialMetricFiles;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialScript;

/**
 * One trial on a machine, as {@link RemoteMachines} follows it: its folder and process group there, and here the
 * copies of its metrics file and stdout, which are read for its metrics. Used on the manager's thread only; a
 * poll in flight carries a {@link MachinePoll.Asked} with the counts it was sent with.
 */
final class RemoteTrial {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteTrial.class);

    final String jobId;
    final Host host;
    /** Its folder on the machine. */
    final String dir;
    /** Its process there, which leads its own session and process group. */
    final long pid;
    /** Its folder here. */
    final Path local;
    /** The copies here of its metrics file and its stdout, read for metrics. */
    final TrialMetricFiles metrics;
    /** Bytes of its metrics file and of its stdout copied here. */
    long fetched;
    long stdoutFetched;
    /** When it is killed if it has not ended by then, once a stop was asked; else {@code null}. */
    Instant killAt;
    boolean stopping;
    boolean ended;

    /** @param before the trial as the store holds it, for one taken back after a restart, else {@code null} */
    RemoteTrial(String jobId, Host host, String dir, long pid, Path local, StoredTrial before) throws IOException {
        this.jobId = jobId;
        this.host = host;
        this.dir = dir;
        this.pid = pid;
        this.local = local;
        this.fetched = size(local.resolve(TrialScript.METRICS));
        this.stdoutFetched = size(local.resolve(TrialScript.STDOUT));
        this.metrics = new TrialMetricFiles(jobId, local.resolve(TrialScript.METRICS), local.resolve(TrialScript.STDOUT), before);
    }

    /** Appends the new bytes of its metrics file and stdout that a poll brought to the copies here; a failure is a problem of the trial's. */
    void copy(byte[] newMetrics, byte[] newStdout, TrialEvents events) {
        append(TrialScript.METRICS, newMetrics, events);
        fetched += newMetrics.length;
        append(TrialScript.STDOUT, newStdout, events);
        stdoutFetched += newStdout.length;
    }

    /** Keeps its stderr, which comes whole with the poll that sees it end. */
    void keepStderr(byte[] stderr) {
        try {
            Files.write(local.resolve(TrialScript.STDERR), stderr);
        } catch (IOException e) {
            LOG.warn("could not keep the stderr of trial {} in {}: {}", jobId, local, e.getMessage());
        }
    }

    private void append(String name, byte[] b, TrialEvents events) {
        if (b.length == 0) {
            return;
        }
        try {
            Files.write(local.resolve(name), b, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            events.problem(jobId, "could not keep its " + name + " in " + local + ": " + e.getMessage());
        }
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }
}
