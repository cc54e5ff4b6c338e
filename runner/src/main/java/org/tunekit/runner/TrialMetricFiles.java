package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Path;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrialEvents;

/**
 * The files a trial reports its metrics in, read as they grow and handed to the manager: NNI's metrics
 * file and, where the trial's output is kept, the {@code NNISDK_ME} lines it
 * printed. For a trial taken back after a restart, the frames the store counts
 * as handled ({@link StoredTrial#framesRead}) are read again and skipped, so none is handed on twice.
 * Used on the manager's thread. Public for the training services in other modules.
 */
public final class TrialMetricFiles {
    private final String trialJobId;
    private final MetricsFileReader metrics;
    private final Path metricsFile;
    private final PrintedMetrics printed;
    private int skipFile;
    private int skipOutput;
    private boolean problemTold;

    /**
     * @param metricsFile the trial's metrics file
     * @param output      the copy of its standard output, or {@code null} when its printed lines are not read
     * @param before      the trial as the store holds it, when a previous manager handled some of its frames, else {@code null}
     */
    public TrialMetricFiles(String trialJobId, Path metricsFile, Path output, StoredTrial before) {
        this.trialJobId = trialJobId;
        this.metricsFile = metricsFile;
        this.metrics = new MetricsFileReader(metricsFile);
        this.printed = output == null ? null : new PrintedMetrics(output);
        this.skipFile = before == null ? 0 : before.framesRead(MetricStream.FILE);
        this.skipOutput = before == null ? 0 : before.framesRead(MetricStream.OUTPUT);
    }

    /** The frames a previous manager handled that are still to be skipped. */
    public int skipping() {
        return skipFile + skipOutput;
    }

    /**
     * Hands {@code events} the metrics completed since the last call (at the trial's end, {@code atEnd}: all
     * that are left), and once what breaks the metrics file's format.
     */
    public void deliver(TrialEvents events, boolean atEnd) {
        try {
            for (String text : atEnd ? metrics.finish() : metrics.poll()) {
                if (skipFile > 0) {
                    skipFile--;
                } else {
                    hand(events, text, MetricStream.FILE);
                }
            }
        } catch (IOException e) {
            events.problem(trialJobId, "cannot read its metrics file " + metricsFile + ": " + e.getMessage());
        }
        if (metrics.problem() != null && !problemTold) {
            problemTold = true;
            events.problem(trialJobId, metrics.problem());
        }
        if (printed == null) {
            return;
        }
        try {
            for (String text : printed.poll(atEnd)) {
                if (skipOutput > 0) {
                    skipOutput--;
                } else {
                    hand(events, text, MetricStream.OUTPUT);
                }
            }
        } catch (IOException e) {
            events.problem(trialJobId, "cannot read its output for metrics: " + e.getMessage());
        }
    }

    private void hand(TrialEvents events, String text, MetricStream from) {
        try {
            events.metric(trialJobId, text, from);
        } catch (IllegalArgumentException malformed) {
            // recorded by the manager as the trial's problem
        }
    }
}
