package org.tunekit.bench.curves;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Metric;

/**
 * An assessor passed through unchanged, that also tells the manager each verdict once it is given, so
 * the manager can wait for the dispatcher's answer (a {@code KI} or nothing) before the trial's next
 * epoch: the run then does not depend on thread timing.
 */
final class ProbedAssessor implements Assessor {

    /**
     * One verdict.
     *
     * @param trialJobId the trial judged
     * @param history    how many values it was judged on
     * @param result     the verdict, or {@code null} when the assessor threw
     */
    record Verdict(String trialJobId, int history, AssessResult result) {}

    private final Assessor assessor;
    private final BlockingQueue<Verdict> verdicts = new LinkedBlockingQueue<>();

    ProbedAssessor(Assessor assessor) {
        this.assessor = assessor;
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        AssessResult result = null;
        try {
            result = assessor.assessTrial(trialJobId, history);
            return result;
        } finally {
            verdicts.add(new Verdict(trialJobId, history.size(), result));
        }
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        assessor.trialEnd(trialJobId, success);
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        assessor.saveCheckpoint(directory);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        assessor.loadCheckpoint(directory);
    }

    /** The next verdict, waiting up to {@code millis}, or {@code null}. */
    Verdict next(long millis) throws InterruptedException {
        return verdicts.poll(millis, TimeUnit.MILLISECONDS);
    }
}
