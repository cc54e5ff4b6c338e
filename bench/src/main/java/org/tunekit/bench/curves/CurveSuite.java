package org.tunekit.bench.curves;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.stats.RankCorrelation;

/**
 * The synthetic training problem: a validation error (minimised) reported once per epoch for
 * {@link #EPOCHS} epochs. Four hyper-parameters ({@code lr} log-uniform in [1e-4, 1],
 * {@code batch_size} a choice of 16..256, {@code width} uniform in [0.1, 1], {@code schedule} a
 * choice of {@code constant}, {@code cosine}, {@code warmup}) decide deterministically the curve's
 * family and shape, and its value at the last epoch, which is a closed-form function of them:
 *
 * <pre>
 *   final = 0.05 + offset(schedule) + 0.006 |log2(batch/64)| + 0.05 (log10 lr - best_lr)^2 + 0.25 (width - 0.7)^2
 *   best_lr = {constant: -2.5, cosine: -2.0, warmup: -1.5} + 0.15 log2(batch/64)
 *   offset  = {constant: 0.04, cosine: 0.015, warmup: 0}
 * </pre>
 *
 * unless the learning rate is more than 10^1.2 times {@code best_lr}: then the run diverges, dipping
 * first and climbing to a plateau of 0.85 by the last epoch. The families: {@code constant} saturates
 * exponentially and fast, {@code cosine} follows a power law, {@code warmup} closes only 30% of its gap
 * to the final value (slowly) before an onset epoch (6 to 30) and then drops in a sigmoid, overtaking
 * the fast starters and reaching the best finals. Smaller
 * learning rates slow every family down. A {@link SuitePace} scales every time constant: at
 * {@link SuitePace#LATE_SETTLING} (the default) as given here, at {@link SuitePace#EARLY_SETTLING} three
 * tenths of it; the final values do not depend on it. Each observed value adds Gaussian noise of standard deviation
 * {@code 0.01 sqrt(64/batch)}, drawn from a generator seeded by (run seed, trial, epoch). The best
 * final value over the space is {@link #OPTIMUM} (warmup, batch 64, lr 10^-1.5, width 0.7).
 */
final class CurveSuite {
    /** Epochs of a full training run. */
    static final int EPOCHS = 50;
    /** The smallest final value in the space. */
    static final double OPTIMUM = 0.05;
    /** The error of an untrained model. */
    static final double CHANCE = 0.9;
    /** Where diverged runs end. */
    static final double DIVERGED = 0.85;
    /** The parameter an advisor uses to tell a trial how many epochs to run. */
    static final String TRIAL_BUDGET = "TRIAL_BUDGET";

    private static final List<Object> BATCH_SIZES = List.of(16L, 32L, 64L, 128L, 256L);
    private static final List<Object> SCHEDULES = List.of("constant", "cosine", "warmup");
    private static final double DIVERGENCE_MARGIN = 1.2;
    /** The share of a slow starter's gap that closes before its onset, at the pace of a slow exponential. */
    private static final double EARLY_SHARE = 0.3;

    /** The curve families. */
    enum Family {
        /** Fast exponential saturation. */
        EXPONENTIAL,
        /** Power-law saturation. */
        POWER_LAW,
        /** Flat near chance level until an onset epoch, then a sigmoid drop to the best finals. */
        SLOW_START,
        /** Dips, then climbs to a high plateau. */
        DIVERGING
    }

    /**
     * One configuration's curve.
     *
     * @param family     its family
     * @param finalValue its noiseless value at epoch {@link #EPOCHS}
     * @param rate       the family's time constant in epochs (exponential τ, power-law scale, sigmoid onset, or divergence onset)
     * @param second     for {@link Family#DIVERGING}: the level the dip heads for before the climb; for
     *                   {@link Family#SLOW_START}: the time constant of the early progress; unused otherwise
     * @param noise      the noise's standard deviation
     * @param timeScale  the factor on the families' fixed time constants (the sigmoid's width, the dip's pace)
     */
    record Curve(Family family, double finalValue, double rate, double second, double noise, double timeScale) {

        /** The noiseless value after {@code epoch} epochs (1-based; 0 is the untrained model). */
        double mean(int epoch) {
            if (epoch < 0) {
                throw new IllegalArgumentException("epoch must be at least 0, got " + epoch);
            }
            double t = epoch;
            double n = EPOCHS;
            return switch (family) {
                case EXPONENTIAL -> finalValue + (CHANCE - finalValue) * normalised(Math.exp(-t / rate), Math.exp(-n / rate));
                case POWER_LAW -> finalValue + (CHANCE - finalValue)
                        * normalised(Math.pow(1 + t / rate, -1.2), Math.pow(1 + n / rate, -1.2));
                case SLOW_START -> finalValue + (CHANCE - finalValue)
                        * ((1 - EARLY_SHARE) * (sigmoid(t) - sigmoid(n)) / (sigmoid(0) - sigmoid(n))
                        + EARLY_SHARE * normalised(Math.exp(-t / second), Math.exp(-n / second)));
                case DIVERGING -> {
                    double dip = second + (CHANCE - second) * Math.exp(-t / (2.0 * timeScale));
                    double dipEnd = second + (CHANCE - second) * Math.exp(-n / (2.0 * timeScale));
                    double climb = t <= rate ? 0 : (1 - Math.exp(-3 * (t - rate) / (n - rate))) / (1 - Math.exp(-3));
                    yield dip + (finalValue - dipEnd) * climb;
                }
            };
        }

        /** The value observed at {@code epoch} in trial {@code trial} of the run seeded {@code seed}: the mean plus seeded noise. */
        double observed(long seed, long trial, int epoch) {
            SplittableRandom random = new SplittableRandom(mix(mix(seed, trial), epoch));
            return mean(epoch) + noise * gaussian(random);
        }

        private double sigmoid(double t) {
            return 1 / (1 + Math.exp((t - rate) / (2.5 * timeScale)));
        }

        /** {@code (v - end) / (1 - end)}: 1 at t = 0 and exactly 0 at the last epoch. */
        private static double normalised(double v, double end) {
            return (v - end) / (1 - end);
        }
    }

    private CurveSuite() {}

    /** The search space, in NNI's format. */
    static Map<String, Object> spaceDefinition() {
        Map<String, Object> space = new LinkedHashMap<>();
        space.put("lr", Map.of("_type", "loguniform", "_value", List.of(1e-4, 1.0)));
        space.put("batch_size", Map.of("_type", "choice", "_value", BATCH_SIZES));
        space.put("width", Map.of("_type", "uniform", "_value", List.of(0.1, 1.0)));
        space.put("schedule", Map.of("_type", "choice", "_value", SCHEDULES));
        return space;
    }

    /** The curve of a configuration at {@link SuitePace#LATE_SETTLING}. */
    static Curve curveOf(Parameters p) {
        return curveOf(p, SuitePace.LATE_SETTLING);
    }

    /**
     * The curve of a configuration at a pace (other keys, such as {@link #TRIAL_BUDGET}, are ignored).
     *
     * @throws IllegalArgumentException naming the parameter that is missing or out of the space
     */
    static Curve curveOf(Parameters p, SuitePace pace) {
        double scale = pace.timeScale();
        double lr = number(p, "lr");
        double batch = number(p, "batch_size");
        double width = number(p, "width");
        Object scheduleValue = p.get("schedule");
        if (!(scheduleValue instanceof String schedule) || !SCHEDULES.contains(schedule)) {
            throw new IllegalArgumentException("parameter 'schedule' must be one of " + SCHEDULES + ", got " + scheduleValue);
        }
        if (!(lr > 0) || !(batch > 0)) {
            throw new IllegalArgumentException("parameters 'lr' and 'batch_size' must be positive, got " + lr + " and " + batch);
        }
        double u = Math.log10(lr);
        double batchLog = Math.log(batch / 64) / Math.log(2);
        double bestLr = switch (schedule) {
            case "constant" -> -2.5;
            case "cosine" -> -2.0;
            default -> -1.5;
        } + 0.15 * batchLog;
        double offset = switch (schedule) {
            case "constant" -> 0.04;
            case "cosine" -> 0.015;
            default -> 0.0;
        };
        double trained = OPTIMUM + offset + 0.006 * Math.abs(batchLog) + 0.05 * (u - bestLr) * (u - bestLr)
                + 0.25 * (width - 0.7) * (width - 0.7);
        double noise = 0.01 * Math.sqrt(64 / batch);
        // how many decades too slow (positive) the learning rate is
        double slowness = Math.max(0, bestLr - u);
        if (u - bestLr > DIVERGENCE_MARGIN) {
            double onset = clamp(30 - 12 * (u - bestLr - DIVERGENCE_MARGIN), 4, 30);
            return new Curve(Family.DIVERGING, DIVERGED, scale * onset, Math.min(trained + 0.03, 0.5), noise, scale);
        }
        return switch (schedule) {
            case "constant" -> new Curve(Family.EXPONENTIAL, trained, scale * clamp(2.5 * Math.pow(10, 0.5 * slowness), 1.5, 40), 0, noise, scale);
            case "cosine" -> new Curve(Family.POWER_LAW, trained, scale * clamp(1.5 * Math.pow(10, 0.5 * slowness), 0.8, 40), 0, noise, scale);
            default -> new Curve(Family.SLOW_START, trained, scale * clamp(6 + 6 * slowness, 6, 30),
                    scale * clamp(6 * Math.pow(10, 0.5 * slowness), 3, 40), noise, scale);
        };
    }

    /** The regret of a configuration: its noiseless final value minus {@link #OPTIMUM}. */
    static double regret(Parameters p) {
        return curveOf(p).finalValue() - OPTIMUM;
    }

    /** The epochs a trial with these parameters runs: {@link #TRIAL_BUDGET} rounded up (at least 1, at most {@link #EPOCHS}), else {@link #EPOCHS}. */
    static int epochsOf(Parameters p) {
        Object budget = p.get(TRIAL_BUDGET);
        if (budget == null) {
            return EPOCHS;
        }
        if (!(budget instanceof Number n) || !(n.doubleValue() > 0)) {
            throw new IllegalArgumentException("parameter '" + TRIAL_BUDGET + "' must be a positive number, got " + budget);
        }
        return (int) Math.max(1, Math.min(EPOCHS, Math.ceil(n.doubleValue() - 1e-9)));
    }

    private static double number(Parameters p, String name) {
        Object v = p.get(name);
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("parameter '" + name + "' must be a number, got " + v);
        }
        return n.doubleValue();
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /**
     * The Spearman rank correlation, over {@code samples} configurations drawn from the search space's
     * prior with a generator seeded {@code seed}, between the value observed after {@code epoch} epochs
     * (with noise) and the noiseless final value, at {@code pace}: how much an equal-step comparison at
     * that epoch says about the final ranking.
     */
    static double rankCorrelation(int epoch, int samples, long seed, SuitePace pace) {
        if (epoch < 1 || epoch > EPOCHS || samples < 2) {
            throw new IllegalArgumentException("epoch must be in [1, " + EPOCHS + "] and samples at least 2, got " + epoch + " and " + samples);
        }
        SearchSpace space = SearchSpace.parse(spaceDefinition());
        SplittableRandom random = new SplittableRandom(seed);
        double[] early = new double[samples];
        double[] last = new double[samples];
        for (int i = 0; i < samples; i++) {
            Curve c = curveOf(space.sample(random), pace);
            early[i] = c.observed(seed, i, epoch);
            last[i] = c.mean(EPOCHS);
        }
        return RankCorrelation.spearman(early, last);
    }

    /** A standard normal variate (Box-Muller, one of the pair). */
    static double gaussian(SplittableRandom random) {
        double u1 = 1 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** A 64-bit mix of two values (SplitMix64's finaliser over their combination). */
    static long mix(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
