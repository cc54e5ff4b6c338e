package org.tunekit.tuners.hyperband;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.tuners.hyperband.BracketSchedule.Bracket;
import org.tunekit.tuners.hyperband.BracketSchedule.Entry;

/**
 * The trials a {@link BracketAdvisor} has handed out and not yet heard the end of, keyed on their
 * parameter ids: which bracket entry each one runs, which job runs it (from its metrics), its last
 * intermediate result, and, at the full budget, its learning curve. None of it outlives the
 * experiment: a checkpoint hands running trials out again.
 */
final class RunningTrials {
    private static final System.Logger LOG = System.getLogger(BracketAdvisor.class.getName());

    /** A trial handed out: the entry it runs and the entry's bracket. */
    record Running(Bracket bracket, Entry entry) {}

    /** A trial taken off the list: what it ran ({@code null} if it was not running) and its full-budget curve, if any. */
    record Finished(Running running, List<Double> curve) {}

    private final Map<Long, Running> running = new LinkedHashMap<>();
    private final Map<String, Long> parameterIdOfJob = new HashMap<>();
    private final Map<Long, String> jobOfParameterId = new HashMap<>();
    private final Map<Long, Double> lastIntermediateLoss = new HashMap<>();
    /** The intermediate results, as losses, of the running trials at the full budget. */
    private final Map<Long, List<Double>> partialCurves = new HashMap<>();

    void start(long parameterId, Bracket bracket, Entry entry) {
        running.put(parameterId, new Running(bracket, entry));
    }

    boolean isRunning(Long parameterId) {
        return running.containsKey(parameterId);
    }

    Running get(long parameterId) {
        return running.get(parameterId);
    }

    /** Notes the job that a metric (other than a request for parameters) ties to its parameter id. */
    void tie(MetricReport report) {
        if (report.trialJobId() != null && report.parameterId() != null
                && report.type() != MetricReport.Type.REQUEST_PARAMETER) {
            parameterIdOfJob.put(report.trialJobId(), report.parameterId());
            if (running.containsKey(report.parameterId())) {
                jobOfParameterId.put(report.parameterId(), report.trialJobId());
            }
        }
    }

    /** Keeps an intermediate result of a running trial, and adds it to its curve when it runs at the full budget. */
    void intermediate(long parameterId, double loss, boolean fullBudget) {
        lastIntermediateLoss.put(parameterId, loss);
        if (fullBudget) {
            partialCurves.computeIfAbsent(parameterId, k -> new ArrayList<>()).add(loss);
        }
    }

    /** The last intermediate result of a trial, as a loss, or {@code null}. */
    Double lastIntermediate(long parameterId) {
        return lastIntermediateLoss.get(parameterId);
    }

    /**
     * The running trial an {@code EN} ends: the one its job's metrics named, else the parameter id of
     * {@code EN} unless a metric tied that id to another job; {@code null} for none.
     */
    Long endedBy(TrialEnd end) {
        Long id = parameterIdOfJob.remove(end.trialJobId());
        if (id == null) {
            // the manager's record of the parameters can name another trial's: trust it only when no
            // metric has tied that id to a different job
            id = end.parameterId();
            if (id != null && jobOfParameterId.containsKey(id) && !jobOfParameterId.get(id).equals(end.trialJobId())) {
                LOG.log(System.Logger.Level.WARNING, "end of trial " + end.trialJobId() + " ignored: its parameter id " + id
                        + " belongs to trial " + jobOfParameterId.get(id));
                return null;
            }
        }
        return id == null || !running.containsKey(id) ? null : id;
    }

    /** Takes a trial off the list. */
    Finished finish(long parameterId) {
        Running r = running.remove(parameterId);
        lastIntermediateLoss.remove(parameterId);
        jobOfParameterId.remove(parameterId);
        return new Finished(r, partialCurves.remove(parameterId));
    }

    /** Forgets every trial (a checkpoint was loaded). */
    void clear() {
        partialCurves.clear();
        running.clear();
        parameterIdOfJob.clear();
        jobOfParameterId.clear();
        lastIntermediateLoss.clear();
    }
}
