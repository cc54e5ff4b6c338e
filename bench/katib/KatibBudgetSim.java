package org.tunekit.katib;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.katib.api.*;

/**
 * The katib-lab driver's controller loop (katib-drive.js: parallel 3, trials that take 1 to 2 time
 * units, the final of 10 noisy reports as the result) played in-process against Tunekit's Suggester,
 * so that hundreds of seeded runs take seconds. Prints one line per seed: algorithm, objective, seed,
 * best final value, the best trial's index.
 *
 * <p>Usage: {@code KatibBudgetSim ALGORITHM OBJECTIVE FIRST_SEED LAST_SEED [EXPERIMENT_PREFIX [SETTINGS]]},
 * SETTINGS as {@code name=value;name=value}; the experiment of seed N is named PREFIX-sN (default
 * prefix: the algorithm's name), as side-by-side.sh names them. OBJECTIVE: sphere (centre drawn from the
 * seed), branin, rosenbrock, over the two parameters of Katib's tpe.yaml scaled to [0, 1] as the driver
 * scales them; rosenbrock6, the six-dimensional Rosenbrock, over six such parameters (tpe.yaml's two and
 * two more copies of each, scaled the same way). System properties sim.trials (30) and sim.parallel (3).
 */
public class KatibBudgetSim {
    /** The parameters: name, min, max. The two-parameter objectives use the first two (Katib's tpe.yaml). */
    static final String[][] PARAMETERS = {{"lr", "0.01", "0.05"}, {"momentum", "0.5", "0.9"}, {"lr2", "0.01", "0.05"},
            {"momentum2", "0.5", "0.9"}, {"lr3", "0.01", "0.05"}, {"momentum3", "0.5", "0.9"}};

    public static void main(String[] a) {
        String alg = a[0], obj = a[1];
        int from = Integer.parseInt(a[2]), to = Integer.parseInt(a[3]);
        String prefix = a.length > 4 ? a[4] : alg;
        int maxTrials = Integer.getInteger("sim.trials", 30), parallel = Integer.getInteger("sim.parallel", 3);
        List<AlgorithmSetting> settings = new ArrayList<>();
        if (a.length > 5) for (String kv : a[5].split(";")) { String[] p = kv.split("=", 2); settings.add(AlgorithmSetting.newBuilder().setName(p[0]).setValue(p[1]).build()); }
        int dims = obj.equals("rosenbrock6") ? 6 : 2;
        ExperimentSpec.ParameterSpecs.Builder specs = ExperimentSpec.ParameterSpecs.newBuilder();
        for (int d = 0; d < dims; d++) {
            specs.addParameters(ParameterSpec.newBuilder().setName(PARAMETERS[d][0]).setParameterType(ParameterType.DOUBLE)
                    .setFeasibleSpace(FeasibleSpace.newBuilder().setMin(PARAMETERS[d][1]).setMax(PARAMETERS[d][2])));
        }
        Suggester sug = new Suggester(new Algorithms(AlgorithmCatalog.discover(List.of())), 1000);
        for (int seed = from; seed <= to; seed++) {
            SplittableRandom rand = new SplittableRandom(seed * 7919L + 17);
            double[] center = {0.15 + 0.7 * rand.nextDouble(), 0.15 + 0.7 * rand.nextDouble()};
            Experiment e = Experiment.newBuilder().setName(prefix + "-s" + seed).setSpec(ExperimentSpec.newBuilder()
                    .setParameterSpecs(specs)
                    .setObjective(ObjectiveSpec.newBuilder().setType(ObjectiveType.MINIMIZE).setObjectiveMetricName("loss"))
                    .setAlgorithm(AlgorithmSpec.newBuilder().setAlgorithmName(alg).addAllAlgorithmSettings(settings))).build();
            List<Trial> trials = new ArrayList<>();
            List<double[]> left = new ArrayList<>(); // per trial: remaining time (NaN when done)
            int requests = 0, done = 0, clock = 0;
            double best = Double.POSITIVE_INFINITY; int bestIdx = -1;
            while (done < maxTrials) {
                int active = trials.size() - done;
                int want = Math.max(0, Math.min(parallel, maxTrials - done) - active);
                if (want > 0) {
                    requests += want;
                    GetSuggestionsReply r = sug.suggest(GetSuggestionsRequest.newBuilder().setExperiment(e).addAllTrials(trials)
                            .setCurrentRequestNumber(want).setTotalRequestNumber(requests).build());
                    for (GetSuggestionsReply.ParameterAssignments pa : r.getParameterAssignmentsList()) {
                        trials.add(Trial.newBuilder().setName(e.getName() + "-" + String.format("%04d", trials.size()))
                                .setSpec(TrialSpec.newBuilder().setParameterAssignments(TrialSpec.ParameterAssignments.newBuilder().addAllAssignments(pa.getAssignmentsList())))
                                .setStatus(TrialStatus.newBuilder().setCondition(TrialStatus.TrialConditionType.RUNNING)).build());
                        left.add(new double[] {1 + rand.nextDouble()});
                    }
                }
                int k = -1;
                for (int i = 0; i < trials.size(); i++) if (!Double.isNaN(left.get(i)[0]) && (k < 0 || left.get(i)[0] < left.get(k)[0])) k = i;
                double dt = left.get(k)[0];
                for (int i = 0; i < trials.size(); i++) if (!Double.isNaN(left.get(i)[0])) left.get(i)[0] -= dt;
                left.get(k)[0] = Double.NaN;
                Trial t = trials.get(k);
                List<ParameterAssignment> as = t.getSpec().getParameterAssignments().getAssignmentsList();
                double[] u = new double[dims];
                for (ParameterAssignment pa : as) {
                    for (int d = 0; d < dims; d++) {
                        if (PARAMETERS[d][0].equals(pa.getName())) {
                            double lo = Double.parseDouble(PARAMETERS[d][1]), hi = Double.parseDouble(PARAMETERS[d][2]);
                            u[d] = (Double.parseDouble(pa.getValue()) - lo) / (hi - lo);
                        }
                    }
                }
                double loss = objective(obj, u, center);
                double v = 0;
                for (int s = 1; s <= 10; s++) v = loss + (1 + loss) * Math.exp(-s / 2.0) * (0.8 + 0.4 * rand.nextDouble());
                clock++;
                trials.set(k, t.toBuilder().setStatus(TrialStatus.newBuilder().setCondition(TrialStatus.TrialConditionType.SUCCEEDED)
                        .setCompletionTime(String.format("2026-01-01T%02d:%02d:%02dZ", clock / 3600, clock / 60 % 60, clock % 60))
                        .setObservation(Observation.newBuilder().addMetrics(Metric.newBuilder().setName("loss").setValue(Double.toString(v))))).build());
                done++;
                if (v < best) { best = v; bestIdx = k; }
            }
            System.out.println(alg + " " + obj + " " + seed + " " + best + " " + bestIdx);
        }
    }

    static double objective(String name, double[] u, double[] c) {
        double u0 = u[0], u1 = u[1];
        switch (name) {
            case "sphere": return (u0 - c[0]) * (u0 - c[0]) + (u1 - c[1]) * (u1 - c[1]);
            case "branin": {
                double x1 = 15 * u0 - 5, x2 = 15 * u1;
                double b = Math.pow(x2 - 5.1 / (4 * Math.PI * Math.PI) * x1 * x1 + 5 / Math.PI * x1 - 6, 2) + 10 * (1 - 1 / (8 * Math.PI)) * Math.cos(x1) + 10;
                return b - 0.397887;
            }
            case "rosenbrock": {
                double x0 = 4 * u0 - 2, x1 = 4 * u1 - 2;
                return 100 * Math.pow(x1 - x0 * x0, 2) + Math.pow(1 - x0, 2);
            }
            case "rosenbrock6": {
                double sum = 0;
                for (int d = 0; d + 1 < u.length; d++) {
                    double x0 = 4 * u[d] - 2, x1 = 4 * u[d + 1] - 2;
                    sum += 100 * Math.pow(x1 - x0 * x0, 2) + Math.pow(1 - x0, 2);
                }
                return sum;
            }
            default: throw new IllegalArgumentException(name);
        }
    }
}
