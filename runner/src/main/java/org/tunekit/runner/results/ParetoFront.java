package org.tunekit.runner.results;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.tunekit.sdk.objectives.Hypervolume;
import org.tunekit.sdk.objectives.Objective;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.objectives.Pareto;

/**
 * The Pareto front of a multi-objective experiment: the trials whose final metric holds a finite
 * value for every objective (LOST trials aside, as in every ranking) and that no other such trial dominates, with the hypervolume they
 * cover.
 *
 * <p>The reference point takes, for each objective, the {@code reference} the objective gives in the
 * config; without one, the front's worst value of that objective moved outwards by a tenth of the
 * front's range of it (by a tenth of 1 when the front has a single value), so that every member of
 * the front adds to the hypervolume.
 *
 * @param objectives the objectives
 * @param trials     the front's trials, by the first objective's value from best to worst, then sequence
 * @param values     each front trial's objective values, as reported
 * @param reference  the reference point, as objective values
 * @param fromConfig for each objective, whether its reference value came from the config
 * @param hypervolume the hypervolume of the front with respect to the reference point
 * @param counted    how many trials had every objective's value (the candidates)
 * @param lacking    how many trials had a final metric without some objective's value (or not finite)
 */
public record ParetoFront(List<Objective> objectives, List<TrialRecord> trials, List<double[]> values, double[] reference,
                   boolean[] fromConfig, double hypervolume, int counted, int lacking) {

    /** The front of the results, or empty when the experiment has no objectives or no trial has all their values. */
    public static Optional<ParetoFront> of(ExperimentResults r) {
        Objectives objectives;
        try {
            objectives = r.objectiveList();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (objectives.isEmpty()) {
            return Optional.empty();
        }
        List<TrialRecord> candidates = new ArrayList<>();
        List<double[]> raw = new ArrayList<>();
        int lacking = 0;
        for (TrialRecord t : r.trials()) {
            if (t.finalMetric() == null || !t.status().ranked()) {
                continue;
            }
            double[] v;
            try {
                v = objectives.values(t.finalMetric(), "trial " + t.trialJobId());
            } catch (IllegalArgumentException e) {
                lacking++;
                continue;
            }
            boolean finite = true;
            for (double x : v) {
                finite &= Double.isFinite(x);
            }
            if (!finite) {
                lacking++;
                continue;
            }
            candidates.add(t);
            raw.add(v);
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        List<Objective> list = objectives.list();
        int m = list.size();
        double[][] losses = new double[raw.size()][m];
        for (int i = 0; i < raw.size(); i++) {
            for (int k = 0; k < m; k++) {
                losses[i][k] = list.get(k).toLoss(raw.get(i)[k]);
            }
        }
        int[] front = Pareto.nondominated(losses);
        List<Integer> order = new ArrayList<>();
        for (int i : front) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingDouble(i -> losses[i][0]).thenComparingInt(i -> candidates.get(i).sequence()));
        double[][] frontLosses = new double[order.size()][];
        List<TrialRecord> trials = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        for (int k = 0; k < order.size(); k++) {
            frontLosses[k] = losses[order.get(k)];
            trials.add(candidates.get(order.get(k)));
            values.add(raw.get(order.get(k)));
        }
        double[] referenceLoss = Hypervolume.nadirReference(frontLosses, 0.1);
        boolean[] fromConfig = new boolean[m];
        for (int k = 0; k < m; k++) {
            if (list.get(k).reference().isPresent()) {
                referenceLoss[k] = list.get(k).referenceLoss().getAsDouble();
                fromConfig[k] = true;
            }
        }
        double hv = Hypervolume.of(frontLosses, referenceLoss);
        double[] reference = new double[m];
        for (int k = 0; k < m; k++) {
            // toLoss is its own inverse: a negation or the identity
            reference[k] = list.get(k).toLoss(referenceLoss[k]) + 0.0;
        }
        return Optional.of(new ParetoFront(list, List.copyOf(trials), List.copyOf(values), reference, fromConfig, hv,
                candidates.size(), lacking));
    }

    /** {@code accuracy=0.5 (config), latency=12.3 (front's worst + 10% of its range)}. */
    String referenceText() {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < objectives.size(); k++) {
            sb.append(k == 0 ? "" : ", ").append(objectives.get(k).metric()).append('=').append(Values.number(reference[k]))
                    .append(fromConfig[k] ? " (config)" : " (front's worst + 10% of its range)");
        }
        return sb.toString();
    }

    /** {@code maximize accuracy, minimize latency}. */
    String objectivesText() {
        StringBuilder sb = new StringBuilder();
        for (Objective o : objectives) {
            sb.append(sb.length() == 0 ? "" : ", ").append(o.mode().name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(o.metric());
        }
        return sb.toString();
    }
}
