package org.tunekit.bench.curves;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;

/**
 * An advisor passed through unchanged, that counts the calls it has finished (except {@code open}).
 * The dispatcher makes one call per command, and whatever the advisor sends during a call is on the
 * channel when the call returns, so a manager that waits for the count to reach the commands it posted
 * sees every answer, whatever the thread timing.
 */
final class ProbedAdvisor implements Advisor {
    private final Advisor advisor;
    private long finished;

    ProbedAdvisor(Advisor advisor) {
        this.advisor = advisor;
    }

    @Override
    public void open(AdvisorContext context) {
        advisor.open(context);
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        try {
            advisor.updateSearchSpace(space);
        } finally {
            done();
        }
    }

    @Override
    public void requestTrialJobs(int count) {
        try {
            advisor.requestTrialJobs(count);
        } finally {
            done();
        }
    }

    @Override
    public void reportMetric(MetricReport report) {
        try {
            advisor.reportMetric(report);
        } finally {
            done();
        }
    }

    @Override
    public void trialEnd(TrialEnd end) {
        try {
            advisor.trialEnd(end);
        } finally {
            done();
        }
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        try {
            advisor.importData(trials);
        } finally {
            done();
        }
    }

    @Override
    public void addCustomizedTrials(List<ParameterRecord> records) {
        try {
            advisor.addCustomizedTrials(records);
        } finally {
            done();
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        advisor.saveCheckpoint(directory);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        advisor.loadCheckpoint(directory);
    }

    private synchronized void done() {
        finished++;
        notifyAll();
    }

    /** Waits up to {@code millis} until {@code calls} calls have finished; true when they have. */
    synchronized boolean awaitFinished(long calls, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (finished < calls) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }
}
