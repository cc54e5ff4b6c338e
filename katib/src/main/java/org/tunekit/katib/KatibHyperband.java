package org.tunekit.katib;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.katib.api.AlgorithmSetting;
import org.tunekit.katib.api.AlgorithmSpec;
import org.tunekit.katib.api.ExperimentSpec;
import org.tunekit.katib.api.FeasibleSpace;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;

/**
 * Katib's {@code hyperband}, scheduled from the request alone: the trials are the state.
 *
 * <h2>Settings</h2>
 * {@code resource_name} (required): the parameter that carries a trial's budget, an {@code INT} or
 * {@code DOUBLE} range of the experiment; {@code r_l} (required): the largest budget a trial gets,
 * a number of at least 1; {@code eta} (default 3): the reduction factor, a number above 1;
 * {@code random_state} or {@code seed}: the seed of the random samples. The keys Katib's own
 * service writes back as its state ({@code s_max}, {@code b_l}, {@code r}, {@code n},
 * {@code current_s}, {@code current_i}, {@code evaluating_trials}) are accepted and not read (see
 * below). Katib's rule that {@code parallelTrialCount} be at least {@code eta^s_max} is not
 * enforced: it comes from answering one rung per call, which this schedule does not do.
 *
 * <h2>The schedule</h2>
 * As Katib's: {@code s_max = floor(log(r_l) / log(eta))}; bracket {@code s} (from {@code s_max}
 * down to 0) starts {@code n = ceil((s_max + 1) eta^s / (s + 1))} random parameter sets at budget
 * {@code floor(r_l eta^-s)}; its rung {@code i} (1..s) runs again the best
 * {@code ceil(n eta^-i)} of rung {@code i - 1}, by their objective, with the resource parameter set
 * to {@code floor(r_l eta^(i - s))}, every other parameter unchanged. A rung is decided once every
 * trial of the rung before it has finished; trials that end without the objective are never
 * promoted. The budget is put into the resource parameter's feasible space (clamped to
 * [min, max], onto its step's grid); a rung whose budget is then no larger than the rung before's
 * would rerun the same trials, and is dropped.
 *
 * <h2>Differences from Katib's service, and why</h2>
 * Katib's service answers a call with an error while a rung's trials run, keeps its place in the
 * settings it writes back, and answers fewer assignments than asked where a rung is smaller than
 * the free slots, or none once the last bracket is out. Here every call answers exactly
 * {@code current_request_number} assignments: what the earliest bracket cannot give yet (its rung
 * still running) is taken from the next brackets, which start early, and after bracket 0 the whole
 * schedule begins again (round 1, 2, ... with new samples) until the experiment's trial count ends
 * it. Tunekit's NNI-style Hyperband tuner is not used: it keeps its brackets in memory and hands
 * the budget out of band, where Katib puts it into a parameter of the trial.
 *
 * <h2>No memory</h2>
 * The random parameter sets of round {@code k}, bracket {@code s} are drawn by Tunekit's random
 * tuner, seeded from the experiment's name, the seed setting, {@code k} and {@code s}, and never
 * repeat an earlier one of the schedule (but in a finite space used up). So every trial of the
 * request can be placed again: its parameters other than the resource name the sample (round,
 * bracket, position), its resource value the rung. A service killed at any point, or another
 * replica, given the same request, gives the same answer. Trials that fit nowhere (another
 * algorithm's, edited ones) are ignored. The settings written back in the reply
 * ({@code s_max}, {@code b_l}, {@code current_s}, {@code current_i}, {@code evaluating_trials}) are
 * there to be read in the Suggestion's status; they are never read back.
 */
final class KatibHyperband {
    static final String NAME = "hyperband";

    /** The settings taken. */
    static final List<String> SETTINGS = List.of("resource_name", "r_l", "eta", "random_state", "seed");

    /** Katib's state keys: accepted (they come back laid over the experiment's settings) and not read. */
    static final List<String> STATE = List.of("s_max", "b_l", "r", "n", "current_s", "current_i", "evaluating_trials");

    /** The largest {@code s_max}, and the largest first rung, that a schedule may have. */
    private static final int MAX_S = 40;
    private static final long MAX_RUNG = 1_000_000;

    private static final double EPS = 1e-9;

    /** One rung of a bracket: its index i, the budget as the resource parameter gets it, its size. */
    record Rung(int index, BigDecimal budget, String text, int size) {}

    /**
     * A checked setup.
     *
     * @param resource  the resource parameter's name
     * @param eta       the reduction factor
     * @param rl        the largest budget
     * @param sMax      the number of brackets less one
     * @param seed      the seed of the samples
     * @param brackets  per bracket s, its rungs (index s)
     */
    record Plan(String resource, double eta, double rl, int sMax, long seed, List<List<Rung>> brackets) {
        int first(int s) {
            return brackets.get(s).get(0).size();
        }
    }

    private KatibHyperband() {}

    /**
     * Checks the settings against the experiment's parameters.
     *
     * @throws KatibException (INVALID_ARGUMENT) naming the setting that is missing or wrong
     */
    static Plan plan(String experiment, ExperimentSpec spec) {
        Map<String, String> given = new LinkedHashMap<>();
        for (AlgorithmSetting s : spec.getAlgorithm().getAlgorithmSettingsList()) {
            if (!SETTINGS.contains(s.getName()) && !STATE.contains(s.getName())) {
                throw KatibException.invalid("algorithm hyperband has no setting " + s.getName() + "; its settings are: "
                        + String.join(", ", SETTINGS));
            }
            if (given.put(s.getName(), s.getValue().trim()) != null && SETTINGS.contains(s.getName())) {
                throw KatibException.invalid("algorithm hyperband: setting " + s.getName() + " is given twice");
            }
        }
        String resource = given.get("resource_name");
        if (resource == null || resource.isEmpty()) {
            throw KatibException.invalid("algorithm hyperband: setting resource_name is required: the name of the parameter that carries a trial's budget");
        }
        if (!given.containsKey("r_l")) {
            throw KatibException.invalid("algorithm hyperband: setting r_l is required: the largest budget a trial gets");
        }
        double rl = number(given, "r_l");
        if (!(rl >= 1) || Double.isInfinite(rl)) {
            throw KatibException.invalid("algorithm hyperband: setting r_l must be a number of at least 1, got \"" + given.get("r_l") + "\"");
        }
        double eta = given.containsKey("eta") ? number(given, "eta") : 3;
        if (!(eta > 1) || Double.isInfinite(eta)) {
            throw KatibException.invalid("algorithm hyperband: setting eta must be a number above 1, got \"" + given.get("eta") + "\"");
        }
        long seed = 0;
        for (String k : List.of("random_state", "seed")) {
            if (given.containsKey(k)) {
                try {
                    long v = Long.parseLong(given.get(k));
                    if (given.containsKey("random_state") && given.containsKey("seed") && seed != v && k.equals("seed")) {
                        throw KatibException.invalid("algorithm hyperband: settings random_state and seed disagree");
                    }
                    seed = v;
                } catch (NumberFormatException e) {
                    throw KatibException.invalid("algorithm hyperband: setting " + k + " must be an integer, got \"" + given.get(k) + "\"");
                }
            }
        }
        ParameterSpec p = null;
        List<String> names = new ArrayList<>();
        for (ParameterSpec q : spec.getParameterSpecs().getParametersList()) {
            names.add(q.getName());
            if (q.getName().equals(resource)) {
                p = q;
            }
        }
        if (p == null) {
            throw KatibException.invalid("algorithm hyperband: resource_name " + resource + " is not a parameter of the experiment; its parameters are: "
                    + String.join(", ", names));
        }
        if (p.getParameterType() != ParameterType.INT && p.getParameterType() != ParameterType.DOUBLE) {
            throw KatibException.invalid("algorithm hyperband: the resource parameter " + resource + " must be INT or DOUBLE, got "
                    + p.getParameterType());
        }
        FeasibleSpace fs = p.getFeasibleSpace();
        BigDecimal min = KatibSpace.decimal(fs.getMin());
        BigDecimal max = KatibSpace.decimal(fs.getMax());
        BigDecimal step = fs.getStep().isBlank() ? null : KatibSpace.decimal(fs.getStep());
        if (min == null || max == null) {
            throw KatibException.invalid("algorithm hyperband: the resource parameter " + resource + " needs a numeric min and max");
        }
        int sMax = 0;
        while (sMax < MAX_S && Math.pow(eta, sMax + 1) <= rl * (1 + EPS)) {
            sMax++;
        }
        if (Math.pow(eta, sMax + 1) <= rl * (1 + EPS)) {
            throw KatibException.invalid("algorithm hyperband: r_l " + given.get("r_l") + " and eta " + eta + " make more than " + MAX_S + " brackets");
        }
        List<List<Rung>> brackets = new ArrayList<>();
        for (int s = 0; s <= sMax; s++) {
            double n = Math.ceil((sMax + 1) * Math.pow(eta, s) / (s + 1) - EPS);
            if (n > MAX_RUNG) {
                throw KatibException.invalid("algorithm hyperband: r_l " + given.get("r_l") + " and eta " + eta + " make a first rung of "
                        + (long) n + " trials; at most " + MAX_RUNG);
            }
            List<Rung> rungs = new ArrayList<>();
            for (int i = 0; i <= s; i++) {
                BigDecimal budget = budget(Math.floor(rl * Math.pow(eta, i - s) + EPS), min, max, step);
                if (!rungs.isEmpty() && budget.compareTo(rungs.get(rungs.size() - 1).budget()) <= 0) {
                    continue;
                }
                int size = (int) Math.max(1, Math.ceil(n * Math.pow(eta, -i) - EPS));
                rungs.add(new Rung(i, budget, KatibSpace.canonical(budget), size));
            }
            brackets.add(rungs);
        }
        long h = mix(seed);
        for (byte b : experiment.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return new Plan(resource, eta, rl, sMax, mix(h), List.copyOf(brackets));
    }

    private static double number(Map<String, String> given, String name) {
        try {
            return Double.parseDouble(given.get(name));
        } catch (NumberFormatException e) {
            throw KatibException.invalid("algorithm hyperband: setting " + name + " must be a number, got \"" + given.get(name) + "\"");
        }
    }

    /** A budget put into [min, max] and onto the step's grid. */
    private static BigDecimal budget(double b, BigDecimal min, BigDecimal max, BigDecimal step) {
        BigDecimal v = BigDecimal.valueOf((long) b);
        if (v.compareTo(max) > 0) {
            v = max;
        }
        if (step != null && step.signum() > 0) {
            v = min.add(v.subtract(min).divide(step, 0, RoundingMode.FLOOR).max(BigDecimal.ZERO).multiply(step));
        }
        if (v.compareTo(min) < 0) {
            v = min;
        }
        return v.stripTrailingZeros();
    }

    /** One trial placed in the schedule. */
    private record Placed(Trial trial, Double value, boolean finished) {}

    /** A sample of the schedule: round k, bracket s, position j; its assignments and the trials at each rung. */
    private static final class Slot {
        final int position;
        final List<ParameterAssignment> sample;
        final Map<Integer, Placed> byRung = new HashMap<>();

        Slot(int position, List<ParameterAssignment> sample) {
            this.position = position;
            this.sample = sample;
        }
    }

    /** Where the scheduler is: what the reply writes back. */
    private record Frontier(int s, int i) {}

    /**
     * Answers one request with exactly {@code wanted} assignments.
     *
     * @param random the recipe of Tunekit's random tuner, which draws the samples
     */
    static GetSuggestionsReply suggest(Plan plan, KatibSpace space, Algorithms.Recipe random, OptimizeMode mode, String metric,
            List<Trial> trials, int wanted) {
        // trials by their parameters other than the resource; each is placed once
        Map<String, List<Trial>> byRest = new HashMap<>();
        int running = 0;
        for (Trial t : trials) {
            String k = rest(plan, space, t.getSpec().getParameterAssignments().getAssignmentsList());
            if (k != null) {
                byRest.computeIfAbsent(k, x -> new ArrayList<>()).add(t);
            }
            if (!finished(t)) {
                running++;
            }
        }
        Set<String> used = new HashSet<>();
        List<List<ParameterAssignment>> answers = new ArrayList<>(wanted);
        Frontier frontier = null;
        int placed = 0;
        for (int round = 0; answers.size() < wanted; round++) {
            for (int s = plan.sMax(); s >= 0 && answers.size() < wanted; s--) {
                List<Rung> rungs = plan.brackets().get(s);
                List<Slot> slots = new ArrayList<>();
                List<List<ParameterAssignment>> samples = samples(plan, space, random, mode, round, s, used);
                for (int j = 0; j < samples.size(); j++) {
                    Slot slot = new Slot(j, samples.get(j));
                    List<Trial> mine = byRest.get(rest(plan, space, slot.sample));
                    if (mine != null) {
                        for (var it = mine.iterator(); it.hasNext(); ) {
                            Trial t = it.next();
                            Integer r = rungOf(plan, rungs, t);
                            if (r != null && !slot.byRung.containsKey(r)) {
                                slot.byRung.put(r, new Placed(t, Suggester.objective(t, metric), finished(t)));
                                it.remove();
                                placed++;
                            }
                        }
                    }
                    slots.add(slot);
                }
                // rung 0: the samples not yet run
                for (Slot slot : slots) {
                    if (answers.size() == wanted) {
                        break;
                    }
                    if (!slot.byRung.containsKey(0)) {
                        answers.add(withBudget(plan, slot.sample, rungs.get(0)));
                        frontier = frontier == null ? new Frontier(s, rungs.get(0).index()) : frontier;
                    }
                }
                // later rungs, each once the one before has finished
                for (int r = 1; r < rungs.size() && answers.size() < wanted; r++) {
                    List<Slot> before = new ArrayList<>();
                    boolean decided = true;
                    for (Slot slot : slots) {
                        Placed p = slot.byRung.get(r - 1);
                        boolean expected = r - 1 == 0 || p != null;
                        if (expected && (p == null || !p.finished())) {
                            decided = false;
                        }
                        if (p != null && p.value() != null) {
                            before.add(slot);
                        }
                    }
                    if (!decided) {
                        break;
                    }
                    final int prev = r - 1;
                    Comparator<Slot> best = Comparator.comparingDouble(x -> x.byRung.get(prev).value());
                    if (mode == OptimizeMode.MAXIMIZE) {
                        best = best.reversed();
                    }
                    before.sort(best.thenComparingInt(x -> x.position));
                    int size = rungs.get(r).size();
                    final int here = r;
                    long issued = slots.stream().filter(x -> x.byRung.containsKey(here)).count();
                    for (Slot slot : before.subList(0, Math.min(size, before.size()))) {
                        if (answers.size() == wanted || issued >= size) {
                            break;
                        }
                        if (!slot.byRung.containsKey(r)) {
                            answers.add(withBudget(plan, slot.sample, rungs.get(r)));
                            slot.byRung.put(r, new Placed(null, null, false));
                            issued++;
                            frontier = frontier == null ? new Frontier(s, rungs.get(r).index()) : frontier;
                        }
                    }
                }
            }
            if (round > trials.size() + wanted + 1) {
                throw new IllegalStateException("the hyperband schedule gave " + answers.size() + " of " + wanted + " assignments");
            }
        }
        GetSuggestionsReply.Builder reply = GetSuggestionsReply.newBuilder();
        for (List<ParameterAssignment> a : answers) {
            reply.addParameterAssignmentsBuilder().addAllAssignments(a);
        }
        reply.setAlgorithm(AlgorithmSpec.newBuilder()
                .addAlgorithmSettings(setting("s_max", Integer.toString(plan.sMax())))
                .addAlgorithmSettings(setting("b_l", KatibSpace.format((plan.sMax() + 1) * plan.rl())))
                .addAlgorithmSettings(setting("current_s", Integer.toString(frontier.s())))
                .addAlgorithmSettings(setting("current_i", Integer.toString(frontier.i())))
                .addAlgorithmSettings(setting("evaluating_trials", Integer.toString(running))));
        return reply.build();
    }

    private static AlgorithmSetting setting(String name, String value) {
        return AlgorithmSetting.newBuilder().setName(name).setValue(value).build();
    }

    /** The rung (its position in the bracket's list) a trial's resource value names, or {@code null}. */
    private static Integer rungOf(Plan plan, List<Rung> rungs, Trial t) {
        for (ParameterAssignment a : t.getSpec().getParameterAssignments().getAssignmentsList()) {
            if (a.getName().equals(plan.resource())) {
                BigDecimal v = KatibSpace.decimal(a.getValue().trim());
                if (v == null) {
                    return null;
                }
                for (int r = 0; r < rungs.size(); r++) {
                    if (rungs.get(r).budget().compareTo(v) == 0) {
                        return r;
                    }
                }
                return null;
            }
        }
        return null;
    }

    private static boolean finished(Trial t) {
        TrialStatus.TrialConditionType c = t.getStatus().getCondition();
        return c == TrialStatus.TrialConditionType.SUCCEEDED || c == TrialStatus.TrialConditionType.FAILED
                || c == TrialStatus.TrialConditionType.KILLED || c == TrialStatus.TrialConditionType.EARLYSTOPPED;
    }

    private static List<ParameterAssignment> withBudget(Plan plan, List<ParameterAssignment> sample, Rung rung) {
        List<ParameterAssignment> out = new ArrayList<>(sample.size());
        for (ParameterAssignment a : sample) {
            out.add(a.getName().equals(plan.resource()) ? a.toBuilder().setValue(rung.text()).build() : a);
        }
        return out;
    }

    /** A key of the assignments but for the resource parameter, or {@code null} when they are not of the space. */
    private static String rest(Plan plan, KatibSpace space, List<ParameterAssignment> assignments) {
        return space.key(assignments, plan.resource());
    }

    /**
     * The first rung's samples of round {@code round}, bracket {@code s}: drawn by the random tuner
     * seeded from the plan's seed, the round and the bracket; a sample whose parameters (but the
     * resource) an earlier one of the schedule has ({@code used}, which this adds to) is drawn again,
     * as long as the space has new ones.
     */
    private static List<List<ParameterAssignment>> samples(Plan plan, KatibSpace space, Algorithms.Recipe random, OptimizeMode mode,
            int round, int s, Set<String> used) {
        int n = plan.first(s);
        Tuner tuner = random.create(mode, mix(plan.seed() + 0x9E3779B97F4A7C15L * (round * (long) (plan.sMax() + 1) + (plan.sMax() - s) + 1)));
        tuner.updateSearchSpace(space.space());
        List<List<ParameterAssignment>> out = new ArrayList<>(n);
        List<List<ParameterAssignment>> repeats = new ArrayList<>();
        long id = 0;
        for (int attempt = 0; attempt < 4 && out.size() < n; attempt++) {
            int ask = n - out.size() + 8;
            List<Long> ids = new ArrayList<>(ask);
            for (int i = 0; i < ask; i++) {
                ids.add(id++);
            }
            List<Parameters> got = tuner.generateMultipleParameters(ids);
            for (Parameters p : got) {
                List<ParameterAssignment> a = space.toKatib(p);
                if (used.add(rest(plan, space, a))) {
                    out.add(a);
                    if (out.size() == n) {
                        break;
                    }
                } else {
                    repeats.add(a);
                }
            }
            if (got.isEmpty()) {
                break;
            }
        }
        // a finite space used up: samples repeat (never more than the space forces)
        for (int i = 0; out.size() < n && !repeats.isEmpty(); i++) {
            out.add(repeats.get(i % repeats.size()));
        }
        if (out.size() < n) {
            throw new KatibException(io.grpc.Status.Code.RESOURCE_EXHAUSTED, "algorithm hyperband: the random tuner gave no sample");
        }
        return out;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
