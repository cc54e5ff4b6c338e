package org.tunekit.tuners.hyperband;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.stats.RankCorrelation;
import org.tunekit.tuners.hyperband.BracketAdvisor.ExecMode;

/**
 * The state of the Hyperband loop: the schedule ({@code s_max}, which {@code min_budget: "auto"} finds
 * from the first results), the position in it (the seed, how many configurations were drawn, the round,
 * the next bracket), and every unfinished bracket with the configurations of its current rung. The
 * trials' results cannot rebuild it (which configurations a bracket drew, which of them a rung kept),
 * so it is what the advisor's checkpoint holds ({@link BracketCheckpoint}).
 */
final class BracketSchedule {

    /** Where a configuration of a rung is. */
    enum State { READY, RUNNING, DONE }

    /** One configuration in the current rung of a bracket. */
    static final class Entry {
        /** Its place in the order of drawing: ties rank by it. */
        final long number;
        final Parameters config;
        State state = State.READY;
        long parameterId = -1;
        double loss = Double.NaN;

        Entry(long number, Parameters config) {
            this.number = number;
            this.config = config;
        }
    }

    /** A run of successive halving: bracket {@code s} of a round, at its current rung. */
    final class Bracket {
        final long round;
        final int s;
        int rung;
        long toSample;
        /** The full-budget bracket of {@code min_budget: "auto"} that runs until the schedule is found. */
        boolean startup;
        final List<Entry> entries = new ArrayList<>();

        Bracket(long round, int s) {
            this.round = round;
            this.s = s;
        }

        int budgetIndex() {
            return sMax - s + rung;
        }
    }

    /** A configuration to run next, and its bracket. */
    record Handout(Bracket bracket, Entry entry) {}

    /** Draws a new configuration for the first rung of a bracket. */
    interface Sampler {
        Parameters sample(int budgetIndex, SplittableRandom rng);
    }

    private static final System.Logger LOG = System.getLogger(BracketAdvisor.class.getName());

    private final String algorithm;
    final double maxBudget;
    final int eta;
    final int startupTrials;
    final ExecMode execMode;
    int sMax;
    /** True while the smallest budget is being found. */
    boolean settling;
    /** The full-budget curves (as losses) of the start-up trials so far. */
    final List<double[]> settlingCurves = new ArrayList<>();
    long seed;
    long draws;
    long round;
    int nextS;
    final List<Bracket> brackets = new ArrayList<>();

    /**
     * A schedule at its start; with {@code startupTrials > 0} it first runs the start-up bracket.
     *
     * @param algorithm names the algorithm in log lines
     */
    BracketSchedule(String algorithm, double maxBudget, int sMax, int eta, ExecMode execMode, int startupTrials, long seed) {
        this.algorithm = algorithm;
        this.maxBudget = maxBudget;
        this.sMax = sMax;
        this.eta = eta;
        this.execMode = execMode;
        this.startupTrials = startupTrials;
        this.seed = seed;
        this.nextS = sMax;
        if (startupTrials > 0) {
            settling = true;
            Bracket startup = new Bracket(0, 0);
            startup.startup = true;
            startup.toSample = Long.MAX_VALUE;
            brackets.add(startup);
        }
    }

    long bracketSize(int s) {
        return BracketMath.bracketSize(sMax, eta, s);
    }

    long rungSize(int s, int rung) {
        return BracketMath.rungSize(sMax, eta, s, rung);
    }

    double budget(int i) {
        return BracketMath.budget(maxBudget, eta, sMax, i);
    }

    /**
     * The next configuration to run: a ready one of the oldest unfinished bracket, else (in parallel
     * mode, or when no bracket is unfinished) the first of a new bracket; {@code null} when nothing is
     * ready now.
     */
    Handout handOut(Sampler sampler) {
        for (Bracket b : brackets) {
            Entry e = nextReady(b, sampler);
            if (e != null) {
                return new Handout(b, e);
            }
        }
        if (execMode == ExecMode.PARALLELISM || brackets.isEmpty()) {
            Bracket b = new Bracket(round, nextS);
            b.toSample = bracketSize(nextS);
            if (nextS == 0) {
                nextS = sMax;
                round++;
            } else {
                nextS--;
            }
            brackets.add(b);
            return new Handout(b, nextReady(b, sampler));
        }
        return null;
    }

    private Entry nextReady(Bracket b, Sampler sampler) {
        for (Entry e : b.entries) {
            if (e.state == State.READY) {
                return e;
            }
        }
        if (b.toSample > 0) {
            b.toSample--;
            long number = draws++;
            Parameters config = sampler.sample(b.budgetIndex(), BracketMath.rngFor(seed, number));
            Entry e = new Entry(number, config);
            b.entries.add(e);
            return e;
        }
        return null;
    }

    /**
     * Records the result of an entry that ran: a start-up trial's curve is kept (and the schedule fixed
     * once there are enough), any other result goes to the advisor's {@code observed}; a full-budget
     * curve goes to its {@code fullBudgetCurve} first. Then the bracket advances if its rung is complete.
     *
     * @param fullCurve the losses a successful full-budget trial reported along the way (at least two), or {@code null}
     */
    void completed(Bracket b, Entry e, double loss, double[] fullCurve, BracketAdvisor advisor) {
        e.state = State.DONE;
        e.loss = loss;
        if (fullCurve != null) {
            advisor.fullBudgetCurve(fullCurve);
        }
        if (settling && b.startup) {
            if (fullCurve != null) {
                settlingCurves.add(fullCurve);
            }
            if (settlingCurves.size() >= startupTrials) {
                settle(b, advisor);
            }
        } else {
            advisor.observed(e.config, b.budgetIndex(), loss);
        }
        advance(b);
    }

    /** Fixes {@code s_max} from the start-up curves; the start-up results count at {@code R} from now on. */
    private void settle(Bracket startup, BracketAdvisor advisor) {
        int step = RankCorrelation.firstPredictiveStep(settlingCurves);
        sMax = step == Integer.MAX_VALUE ? 0
                : BracketMath.largestBracket((double) BracketMath.typicalLength(settlingCurves) / step, eta);
        nextS = sMax;
        settling = false;
        startup.toSample = 0;
        LOG.log(System.Logger.Level.INFO, algorithm + ": the values of " + settlingCurves.size() + " full-budget trials rank them "
                + (step == Integer.MAX_VALUE ? "at no step" : "from step " + step) + " as their final values do: s_max " + sMax
                + ", smallest budget " + budget(0));
        settlingCurves.clear();
        for (Entry e : startup.entries) {
            if (e.state == State.DONE) {
                advisor.observed(e.config, sMax, e.loss);
            }
        }
    }

    /** Promotes the best of a complete rung, or retires a finished bracket. */
    void advance(Bracket b) {
        if (b.toSample > 0 || !b.startup && b.entries.size() < rungSize(b.s, b.rung)
                || b.entries.stream().anyMatch(e -> e.state != State.DONE)) {
            return;
        }
        if (b.rung == b.s) {
            brackets.remove(b);
            return;
        }
        long keep = rungSize(b.s, b.rung + 1);
        List<Entry> best = b.entries.stream()
                .sorted(Comparator.comparingDouble((Entry e) -> e.loss).thenComparingLong(e -> e.number))
                .limit(keep).toList();
        b.entries.clear();
        for (Entry e : best) {
            b.entries.add(new Entry(e.number, e.config));
        }
        b.rung++;
    }

    /** Takes the state a checkpoint held (its schedule already set), dropping brackets it left finished. */
    void restore(BracketCheckpoint.Restored r) {
        settlingCurves.clear();
        settlingCurves.addAll(r.curves());
        seed = r.seed();
        draws = r.draws();
        round = r.round();
        nextS = r.nextS();
        brackets.clear();
        brackets.addAll(r.brackets());
        for (Iterator<Bracket> it = brackets.iterator(); it.hasNext(); ) {
            Bracket b = it.next();
            if (b.toSample == 0 && b.rung == b.s && b.entries.stream().allMatch(e -> e.state == State.DONE)) {
                it.remove();
            }
        }
    }
}
