package org.tunekit.tuners.nsga2;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.objectives.Pareto;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.UnitCubeTuner;

/**
 * NSGA-II (Deb, Pratap, Agarwal and Meyarivan 2002, "A Fast and Elitist Multiobjective Genetic
 * Algorithm: NSGA-II") over the unit cube of the encoded search space, made to work one trial at a
 * time.
 *
 * <p>The first {@code population_size} suggestions of the history (results plus pending
 * suggestions) are points of a scrambled Sobol sequence (suggestion {@code k} its point {@code k}),
 * which spread the initial population more evenly than uniform draws. After that every
 * suggestion is one child: the <em>population</em> is the best {@code population_size} of all
 * completed trials, taken front by front in order of non-domination rank and, within the front that
 * does not fit whole, by largest crowding distance (the elitist (mu + lambda) selection of the
 * paper, recomputed whenever a result has arrived, so it needs no generation barrier and a batch of
 * suggestions is a batch of children). Two parents are chosen by binary tournaments (lower rank
 * wins, then larger crowding distance); the child takes each coordinate from simulated binary
 * crossover of theirs (distribution index {@code eta_crossover}, with probability
 * {@code crossover_prob} per child and one half per coordinate) and then polynomial mutation
 * (distribution index {@code eta_mutation}, probability {@code mutation_prob} per coordinate,
 * default one over the number of coordinates). A {@code choice} coordinate is inherited from a
 * parent picked at random and mutated to a uniformly random option. Inactive nested coordinates
 * are inherited from the parent that has them, or drawn at random.
 *
 * <p>Class arguments: {@code objectives} (at least two, see {@link Objectives}), {@code seed},
 * {@code population_size} (default {@value #DEFAULT_POPULATION}), {@code crossover_prob} (0.9),
 * {@code mutation_prob}, {@code eta_crossover} (20), {@code eta_mutation} (20). A result without an
 * objective's key is refused with an error naming the trial and the key.
 *
 * <p>Resume: the population is recomputed from the results and their loss vectors, and the phase
 * from the history, so a fresh tuner given the results through {@code importData} continues
 * exactly.
 */
final class Nsga2Tuner extends UnitCubeTuner {
    static final int DEFAULT_POPULATION = 20;

    private final Objectives objectives;
    private final int populationSize;
    private final double crossoverProbability;
    private final double mutationProbability;
    private final double etaCrossover;
    private final double etaMutation;

    /** Every observed set's loss vector, by its canonical parameter set. */
    private final Map<Parameters, double[]> losses = new HashMap<>();
    /** The initial population's points: suggestion {@code k} of the history takes point {@code k}. */
    private ScrambledSobol initialDesign;
    /** The vector of the result being handed to the base class, for {@link #observed}. */
    private double[] arriving;

    // the population, recomputed when the number of observations changes
    private int populationFor = -1;
    private final List<double[]> parentUnits = new ArrayList<>();
    private int[] parentRank = new int[0];
    private double[] parentCrowding = new double[0];

    private Nsga2Tuner(Objectives objectives, long seed, int populationSize, double crossoverProbability, double mutationProbability,
                       double etaCrossover, double etaMutation) {
        super(OptimizeMode.MINIMIZE, seed);
        this.objectives = objectives;
        this.populationSize = populationSize;
        this.crossoverProbability = crossoverProbability;
        this.mutationProbability = mutationProbability;
        this.etaCrossover = etaCrossover;
        this.etaMutation = etaMutation;
    }

    static Nsga2Tuner create(ClassArguments arguments) {
        arguments.requireOnly("objectives", "seed", "population_size", "crossover_prob", "mutation_prob", "eta_crossover", "eta_mutation");
        Objectives objectives = Objectives.from(arguments).requireSeveral("NSGA2");
        int population = arguments.getInt("population_size", DEFAULT_POPULATION, 2);
        double crossover = arguments.getDouble("crossover_prob", 0.9, 0, 1);
        double mutation = arguments.getDouble("mutation_prob", Double.NaN);
        if (arguments.has("mutation_prob")) {
            mutation = arguments.getDouble("mutation_prob", 0, 0, 1);
        }
        double etaC = arguments.getDouble("eta_crossover", 20, 0, 1000);
        double etaM = arguments.getDouble("eta_mutation", 20, 0, 1000);
        return new Nsga2Tuner(objectives, seedOf(arguments), population, crossover, mutation, etaC, etaM);
    }

    // ------------------------------------------------------------------ results with their vectors

    @Override
    public void receiveTrialResult(TrialResult result) {
        arriving = objectives.losses(result);
        try {
            super.receiveTrialResult(result);
        } finally {
            arriving = null;
        }
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        if (encoded() == null) {
            super.importData(trials); // kept until the space is known, then handed back to this method
            return;
        }
        for (int i = 0; i < trials.size(); i++) {
            arriving = objectives.losses(trials.get(i).metric(), "imported trial " + (i + 1) + " of " + trials.size());
            try {
                super.importData(List.of(trials.get(i)));
            } finally {
                arriving = null;
            }
        }
    }

    @Override
    protected void observed(Observation observation) {
        if (arriving != null) {
            losses.put(observation.parameters(), arriving);
        }
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        losses.keySet().retainAll(observations().stream().map(Observation::parameters).toList());
        populationFor = -1;
        initialDesign = new ScrambledSobol(space.size(), seed());
    }

    // ------------------------------------------------------------------ the population

    private void updatePopulation() {
        List<Observation> all = observations();
        if (populationFor == all.size()) {
            return;
        }
        populationFor = all.size();
        List<double[]> units = new ArrayList<>();
        List<double[]> points = new ArrayList<>();
        for (Observation o : all) {
            double[] v = losses.get(o.parameters());
            if (v != null && finite(v)) {
                units.add(o.unit());
                points.add(v);
            }
        }
        double[][] p = points.toArray(new double[0][]);
        parentUnits.clear();
        List<Integer> rank = new ArrayList<>();
        List<Double> crowding = new ArrayList<>();
        int r = 0;
        for (int[] front : Pareto.fronts(p, populationSize)) {
            if (parentUnits.size() >= populationSize) {
                break;
            }
            double[] distance = Pareto.crowdingDistances(p, front);
            Integer[] order = new Integer[front.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> Double.compare(distance[b], distance[a]));
            for (int k = 0; k < order.length && parentUnits.size() < populationSize; k++) {
                parentUnits.add(units.get(front[order[k]]));
                rank.add(r);
                crowding.add(distance[order[k]]);
            }
            r++;
        }
        parentRank = rank.stream().mapToInt(Integer::intValue).toArray();
        parentCrowding = crowding.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static boolean finite(double[] v) {
        for (double x : v) {
            if (!Double.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    private int tournament(SplittableRandom rng) {
        int a = rng.nextInt(parentUnits.size());
        int b = rng.nextInt(parentUnits.size());
        if (parentRank[a] != parentRank[b]) {
            return parentRank[a] < parentRank[b] ? a : b;
        }
        if (parentCrowding[a] != parentCrowding[b]) {
            return parentCrowding[a] > parentCrowding[b] ? a : b;
        }
        return rng.nextBoolean() ? a : b;
    }

    // ------------------------------------------------------------------ proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        int d = dimension();
        updatePopulation();
        if (parentUnits.size() < 2 || (historySize() < populationSize && parentUnits.size() < populationSize)) {
            return initialDesign.point(historySize() + attempt);
        }
        int first = tournament(rng);
        int second = tournament(rng);
        for (int k = 0; k < 4 && second == first; k++) {
            second = tournament(rng);
        }
        double[] x = parentUnits.get(first);
        double[] y = parentUnits.get(second);
        boolean cross = rng.nextDouble() < crossoverProbability;
        double pm = Double.isNaN(mutationProbability) ? 1.0 / Math.max(1, d) : mutationProbability;
        double[] child = new double[d];
        for (EncodedSpace.Dimension dim : encoded().dimensions()) {
            int i = dim.index();
            double a = x[i];
            double b = y[i];
            if (Double.isNaN(a)) {
                a = Double.isNaN(b) ? rng.nextDouble() : b;
            }
            if (Double.isNaN(b)) {
                b = a;
            }
            double v;
            if (dim.kind() == EncodedSpace.Kind.CATEGORICAL) {
                v = cross && rng.nextBoolean() ? b : a;
                if (rng.nextDouble() < pm) {
                    v = rng.nextDouble();
                }
            } else {
                v = cross && rng.nextBoolean() ? sbx(a, b, rng) : a;
                if (rng.nextDouble() < pm) {
                    v = mutate(v, rng);
                }
            }
            child[i] = Math.max(0, Math.min(1, v));
        }
        return child;
    }

    /** One child value of simulated binary crossover on [0, 1] (bounded form of Deb and Agrawal). */
    private double sbx(double a, double b, SplittableRandom rng) {
        if (Math.abs(a - b) < 1e-14) {
            return a;
        }
        double lo = Math.min(a, b);
        double hi = Math.max(a, b);
        double u = rng.nextDouble();
        double beta = 1 + 2 * Math.min(lo, 1 - hi) / (hi - lo);
        double alpha = 2 - Math.pow(beta, -(etaCrossover + 1));
        double betaQ = u <= 1 / alpha ? Math.pow(u * alpha, 1 / (etaCrossover + 1))
                : Math.pow(1 / (2 - u * alpha), 1 / (etaCrossover + 1));
        double c = rng.nextBoolean() ? 0.5 * (lo + hi - betaQ * (hi - lo)) : 0.5 * (lo + hi + betaQ * (hi - lo));
        return Math.max(0, Math.min(1, c));
    }

    /** Polynomial mutation of a value in [0, 1] (the bounded form of Deb and Goyal). */
    private double mutate(double v, SplittableRandom rng) {
        double u = rng.nextDouble();
        double power = 1 / (etaMutation + 1);
        double delta;
        if (u < 0.5) {
            double xy = 1 - v;
            delta = Math.pow(2 * u + (1 - 2 * u) * Math.pow(xy, etaMutation + 1), power) - 1;
        } else {
            double xy = v;
            delta = 1 - Math.pow(2 * (1 - u) + 2 * (u - 0.5) * Math.pow(xy, etaMutation + 1), power);
        }
        return Math.max(0, Math.min(1, v + delta));
    }
}
