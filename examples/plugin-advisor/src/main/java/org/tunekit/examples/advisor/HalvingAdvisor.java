package org.tunekit.examples.advisor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Successive halving, one bracket after another. A bracket starts {@code n} random configurations at
 * budget {@code min_budget}; when every trial of a rung has ended, the best {@code 1/eta} of them run
 * again at {@code eta} times the budget, until the budget would pass {@code max_budget} or fewer than
 * one would go on; then a new bracket starts. Each trial gets its budget as {@code TRIAL_BUDGET} in its
 * parameters (NNI's Hyperband key), which the trial reads as its number of epochs or the like.
 *
 * <p>An advisor owns the loop: the manager asks for trials ({@link #requestTrialJobs}) and the advisor
 * answers through the {@link AdvisorContext} when it can. A request that comes while a rung still waits
 * for its last results is remembered and filled as soon as the next rung is known, because a manager
 * does not ask twice for the same slot.
 *
 * <p>Class arguments: {@code optimize_mode} (maximize), {@code seed} (0), {@code n} (9), {@code eta}
 * (3), {@code min_budget} (1), {@code max_budget} (9).
 */
public final class HalvingAdvisor implements Advisor {
    /** The parameter that carries a trial's budget. */
    public static final String BUDGET = "TRIAL_BUDGET";

    private final OptimizeMode mode;
    private final SplittableRandom rng;
    private final int n;
    private final int eta;
    private final long minBudget;
    private final long maxBudget;

    private AdvisorContext context;
    private SearchSpace space;
    private int owed;
    private long budget;
    private final Deque<Parameters> waiting = new ArrayDeque<>();
    /** The current rung: parameter id -> configuration (without the budget), in the order sent. */
    private final Map<Long, Parameters> rung = new LinkedHashMap<>();
    private final Map<Long, Double> losses = new HashMap<>();
    private int ended;

    /** An advisor with these class arguments; an unknown or malformed argument is an error naming it. */
    public HalvingAdvisor(ClassArguments args) {
        args.requireOnly("optimize_mode", "seed", "n", "eta", "min_budget", "max_budget");
        this.mode = OptimizeMode.from(args, OptimizeMode.MAXIMIZE);
        this.rng = new SplittableRandom(args.getLong("seed", 0));
        this.n = args.getInt("n", 9, 1);
        this.eta = args.getInt("eta", 3, 2);
        this.minBudget = args.getInt("min_budget", 1, 1);
        this.maxBudget = args.getInt("max_budget", 9, (int) minBudget);
    }

    @Override
    public void open(AdvisorContext context) {
        this.context = context;
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        boolean first = space == null;
        space = newSpace;
        if (first) {
            startBracket();
            dispatch();
        }
    }

    @Override
    public void requestTrialJobs(int count) {
        owed += count;
        dispatch();
    }

    @Override
    public void reportMetric(MetricReport report) {
        if (report.type() == MetricReport.Type.FINAL && report.parameterId() != null && rung.containsKey(report.parameterId())) {
            losses.put(report.parameterId(), mode.toLoss(report.metric().value()));
        }
    }

    @Override
    public void trialEnd(TrialEnd end) {
        Long id = end.parameterId();
        if (id == null || !rung.containsKey(id)) {
            return;
        }
        losses.putIfAbsent(id, Double.POSITIVE_INFINITY);   // failed or stopped without a result: last
        ended++;
        if (ended == rung.size() && waiting.isEmpty()) {
            promote();
            dispatch();
        }
    }

    /** Sends waiting configurations for as many slots as the manager asked for. */
    private void dispatch() {
        if (space == null) {
            return;
        }
        while (owed > 0 && !waiting.isEmpty()) {
            Parameters config = waiting.poll();
            long id = context.newParameterId();
            Map<String, Object> values = new LinkedHashMap<>(config.values());
            values.put(BUDGET, budget);
            rung.put(id, config);
            context.sendTrial(id, Parameters.of(values));
            owed--;
        }
    }

    private void startBracket() {
        rung.clear();
        losses.clear();
        ended = 0;
        budget = minBudget;
        for (int i = 0; i < n; i++) {
            waiting.add(space.sample(rng));
        }
    }

    /** The best 1/eta of the finished rung go on at eta times the budget, or a new bracket starts. */
    private void promote() {
        int keep = rung.size() / eta;
        long next = budget * eta;
        if (keep < 1 || next > maxBudget) {
            startBracket();
            return;
        }
        List<Long> ranked = new ArrayList<>(rung.keySet());
        ranked.sort(Comparator.comparingDouble(losses::get));
        List<Parameters> promoted = new ArrayList<>();
        for (Long id : ranked.subList(0, keep)) {
            promoted.add(rung.get(id));
        }
        rung.clear();
        losses.clear();
        ended = 0;
        budget = next;
        waiting.addAll(promoted);
    }
}
