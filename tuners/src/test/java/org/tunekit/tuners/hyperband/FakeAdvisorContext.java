package org.tunekit.tuners.hyperband;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;

/**
 * An {@link AdvisorContext} that stands in for the dispatcher and the manager: it hands out ids from
 * 0, records every trial sent, and runs trials (FINAL metric, then EN) on request.
 */
public final class FakeAdvisorContext implements AdvisorContext {
    /** A trial the advisor sent. */
    public record Sent(long parameterId, Parameters parameters) {
        /** The budget it carries. */
        public double budget() {
            return parameters.getDouble(BracketAdvisor.BUDGET_KEY);
        }

        /** The hyper-parameters without the budget. */
        public Map<String, Object> config() {
            Map<String, Object> m = new LinkedHashMap<>(parameters.values());
            m.remove(BracketAdvisor.BUDGET_KEY);
            return m;
        }
    }

    private long nextId;
    private final List<Sent> sent = new ArrayList<>();
    private final List<Sent> running = new ArrayList<>();
    private int noMoreTrials;
    private boolean includeIntermediate;

    /** Every trial sent so far, in order. */
    public List<Sent> sent() {
        return sent;
    }

    /** The trials sent and not yet finished, in order. */
    public List<Sent> running() {
        return running;
    }

    /** How many {@code NO} were sent. */
    public int noMoreTrials() {
        return noMoreTrials;
    }

    /** Sets what {@link #includeIntermediateResults()} answers. */
    public void setIncludeIntermediate(boolean value) {
        includeIntermediate = value;
    }

    /** The trial job id the fake manager gives the trial of a parameter id. */
    public static String jobOf(long parameterId) {
        return "job" + parameterId;
    }

    /** Reports a FINAL metric and a SUCCEEDED end for a running trial. */
    public void finish(Advisor advisor, Sent trial, double metric) {
        running.remove(trial);
        advisor.reportMetric(new MetricReport(trial.parameterId(), jobOf(trial.parameterId()), MetricReport.Type.FINAL, 0,
                Metric.of(metric), 0));
        advisor.trialEnd(new TrialEnd(jobOf(trial.parameterId()), "SUCCEEDED", trial.parameterId()));
    }

    /** Reports a trial's intermediate values, one per step, then its last one as its FINAL metric and a SUCCEEDED end. */
    public void finishWithCurve(Advisor advisor, Sent trial, double[] curve) {
        for (int i = 0; i < curve.length; i++) {
            advisor.reportMetric(new MetricReport(trial.parameterId(), jobOf(trial.parameterId()), MetricReport.Type.PERIODICAL, i,
                    Metric.of(curve[i]), 0));
        }
        finish(advisor, trial, curve[curve.length - 1]);
    }

    /** Ends a running trial with {@code event} and no final metric. */
    public void fail(Advisor advisor, Sent trial, String event) {
        running.remove(trial);
        advisor.trialEnd(new TrialEnd(jobOf(trial.parameterId()), event, trial.parameterId()));
    }

    /** Finishes every running trial (oldest first) with the objective's metric; the advisor may send more meanwhile. */
    public void finishAll(Advisor advisor, ToDoubleFunction<Sent> objective) {
        for (Sent t : List.copyOf(running)) {
            finish(advisor, t, objective.applyAsDouble(t));
        }
    }

    /**
     * Runs like a manager with {@code slots} trial slots until {@code trials} trials were sent: asks for
     * {@code slots}, then finishes the oldest running trial and asks for one more, again and again.
     */
    public void run(Advisor advisor, int slots, int trials, ToDoubleFunction<Sent> objective) {
        advisor.requestTrialJobs(slots);
        while (sent.size() < trials) {
            if (running.isEmpty()) {
                throw new AssertionError("no trial is running and the advisor sent nothing after " + sent.size() + " trials");
            }
            finish(advisor, running.get(0), objective.applyAsDouble(running.get(0)));
            advisor.requestTrialJobs(1);
        }
    }

    @Override
    public long newParameterId() {
        return nextId++;
    }

    @Override
    public void sendTrial(long parameterId, Parameters parameters) {
        Sent s = new Sent(parameterId, parameters);
        sent.add(s);
        running.add(s);
    }

    @Override
    public void sendTrialParameters(String trialJobId, int parameterIndex, long parameterId, Parameters parameters) {
        throw new AssertionError("no multi-phase trials in these tests");
    }

    @Override
    public void noMoreTrials(long parameterId) {
        noMoreTrials++;
    }

    @Override
    public void killTrial(String trialJobId) {
        throw new AssertionError("Hyperband never kills trials");
    }

    @Override
    public boolean includeIntermediateResults() {
        return includeIntermediate;
    }
}
