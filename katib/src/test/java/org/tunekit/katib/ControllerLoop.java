package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * Plays Katib's controller: asks for trials while slots are free (every trial in every request),
 * finishes one running trial at a time with the sphere's value at a hidden centre, and checks every
 * answer against the feasible space.
 */
final class ControllerLoop {
    final Experiment experiment;
    final List<Trial> trials = new ArrayList<>();
    final Set<String> keys = new HashSet<>();
    int duplicates;
    int total;
    private final SplittableRandom rng;
    private final double[] centre;

    ControllerLoop(Experiment experiment, long seed) {
        this.experiment = experiment;
        this.rng = new SplittableRandom(seed);
        int n = experiment.getSpec().getParameterSpecs().getParametersCount();
        centre = new double[n];
        for (int i = 0; i < n; i++) {
            centre[i] = 0.2 + 0.6 * rng.nextDouble();
        }
    }

    /** Runs until {@code maxTrials} have finished; {@code call} answers each request (a server, or a fresh one each time). */
    ControllerLoop run(int maxTrials, int parallel, Function<GetSuggestionsRequest, GetSuggestionsReply> call) {
        while (finished() < maxTrials) {
            int running = (int) trials.stream().filter(t -> t.getStatus().getCondition() == TrialStatus.TrialConditionType.RUNNING).count();
            int want = Math.min(parallel, maxTrials - finished()) - running;
            if (want > 0) {
                total += want;
                GetSuggestionsReply reply = call.apply(Katib.request(experiment, trials, want, total));
                assertThat(reply.getParameterAssignmentsCount()).as("assignments for %d asked", want).isEqualTo(want);
                for (GetSuggestionsReply.ParameterAssignments a : reply.getParameterAssignmentsList()) {
                    check(a.getAssignmentsList());
                    String key = a.getAssignmentsList().toString();
                    if (!keys.add(key)) {
                        duplicates++;
                    }
                    trials.add(Katib.trial("t" + trials.size(), a.getAssignmentsList(), TrialStatus.TrialConditionType.RUNNING, null, null));
                }
            }
            // the oldest running trial finishes
            for (int i = 0; i < trials.size(); i++) {
                Trial t = trials.get(i);
                if (t.getStatus().getCondition() == TrialStatus.TrialConditionType.RUNNING) {
                    double loss = loss(t.getSpec().getParameterAssignments().getAssignmentsList());
                    trials.set(i, Katib.trial(t.getName(), t.getSpec().getParameterAssignments().getAssignmentsList(),
                            TrialStatus.TrialConditionType.SUCCEEDED, loss, String.format("2026-01-01T00:%02d:%02dZ", i / 60, i % 60)));
                    break;
                }
            }
        }
        return this;
    }

    int finished() {
        return (int) trials.stream().filter(t -> t.getStatus().getCondition() != TrialStatus.TrialConditionType.RUNNING).count();
    }

    double best() {
        return trials.stream().mapToDouble(t -> Double.parseDouble(t.getStatus().getObservation().getMetrics(0).getValue())).min().orElseThrow();
    }

    private double loss(List<ParameterAssignment> a) {
        double s = 0;
        List<ParameterSpec> params = experiment.getSpec().getParameterSpecs().getParametersList();
        for (int i = 0; i < params.size(); i++) {
            double d = unit(params.get(i), a.get(i).getValue()) - centre[i];
            s += d * d;
        }
        return s;
    }

    private static double unit(ParameterSpec p, String v) {
        List<String> list = p.getFeasibleSpace().getListList();
        if (!list.isEmpty()) {
            int i = list.indexOf(v);
            return list.size() > 1 ? (double) i / (list.size() - 1) : 0.5;
        }
        double lo = Double.parseDouble(p.getFeasibleSpace().getMin());
        double hi = Double.parseDouble(p.getFeasibleSpace().getMax());
        double x = Double.parseDouble(v);
        if (hi == lo) {
            return 0.5;
        }
        if (p.getFeasibleSpace().getDistribution() == Distribution.LOG_UNIFORM) {
            return Math.log(x / lo) / Math.log(hi / lo);
        }
        return (x - lo) / (hi - lo);
    }

    /** Checks an answer as Katib's controller and trial templates need it: every parameter once, in its space. */
    void check(List<ParameterAssignment> assignments) {
        List<ParameterSpec> params = experiment.getSpec().getParameterSpecs().getParametersList();
        assertThat(assignments).hasSize(params.size());
        for (int i = 0; i < params.size(); i++) {
            ParameterSpec p = params.get(i);
            ParameterAssignment a = assignments.get(i);
            assertThat(a.getName()).isEqualTo(p.getName());
            checkValue(p, a.getValue());
        }
    }

    static void checkValue(ParameterSpec p, String v) {
        var fs = p.getFeasibleSpace();
        if (p.getParameterType() == ParameterType.CATEGORICAL || p.getParameterType() == ParameterType.DISCRETE) {
            assertThat(fs.getListList()).as(p.getName()).contains(v);
            return;
        }
        assertThat(v).as(p.getName()).doesNotContain("E").doesNotContain("e");
        BigDecimal x = new BigDecimal(v);
        BigDecimal min = new BigDecimal(fs.getMin());
        BigDecimal max = new BigDecimal(fs.getMax());
        assertThat(x).as(p.getName() + " = " + v).isBetween(min, max);
        if (p.getParameterType() == ParameterType.INT) {
            assertThat(v).as(p.getName()).matches("-?\\d+");
        }
        if (!fs.getStep().isEmpty()) {
            BigDecimal k = x.subtract(min).divide(new BigDecimal(fs.getStep()), java.math.MathContext.DECIMAL128);
            assertThat(k.stripTrailingZeros().scale()).as(p.getName() + " = " + v + " on the step's grid").isLessThanOrEqualTo(0);
        }
    }
}
