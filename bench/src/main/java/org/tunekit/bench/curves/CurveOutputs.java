package org.tunekit.bench.curves;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.tunekit.bench.quality.CsvWriters;
import org.tunekit.bench.quality.Numbers;
import org.tunekit.bench.quality.Quantiles;
import org.tunekit.bench.quality.SvgPlot;
import org.tunekit.sdk.Parameters;

/** The benchmark's files: the two CSVs, the markdown summary and the regret-versus-epochs chart. */
final class CurveOutputs {
    static final String RUNS_HEADER = "config,seed,trials_started,trials_completed,trials_killed,epochs,best_final,regret,oracle_regret,stalled,failure";
    static final String TRIALS_HEADER = "config,seed,trial,trial_job_id,parameter_id,lr,batch_size,width,schedule,family,budget,epochs,end,last_value,true_final";

    /**
     * The targets, by algorithm (every configuration of it, whatever its arguments): assessors at most
     * 60% of the baseline's epochs with regret within +10%; advisors at most 50% at no worse regret.
     */
    private static final Map<String, double[]> TARGETS = Map.of(
            "medianstop", new double[] {60, 1.10},
            "curvefitting", new double[] {60, 1.10},
            "successivehalving", new double[] {60, 1.10},
            "hyperband", new double[] {50, 1.0},
            "bohb", new double[] {50, 1.0});

    private CurveOutputs() {}

    static String runsCsv(List<CurveRun> runs) {
        StringBuilder sb = new StringBuilder(RUNS_HEADER).append('\n');
        for (CurveRun r : runs) {
            sb.append(CsvWriters.field(r.setup().label())).append(',').append(r.seed()).append(',');
            if (r.succeeded()) {
                sb.append(r.started()).append(',').append(r.completed()).append(',').append(r.killed()).append(',').append(r.epochs())
                        .append(',').append(r.chosen().map(t -> Double.toString(t.lastValue())).orElse(""))
                        .append(',').append(num(r.regret())).append(',').append(num(r.oracleRegret()))
                        .append(',').append(r.trace().stalled()).append(",\n");
            } else {
                sb.append(",,,,,,,,").append(CsvWriters.field(r.failure())).append('\n');
            }
        }
        return sb.toString();
    }

    static String trialsCsv(List<CurveRun> runs) {
        StringBuilder sb = new StringBuilder(TRIALS_HEADER).append('\n');
        for (CurveRun r : runs) {
            if (!r.succeeded()) {
                continue;
            }
            for (CurveExperiment.TrialRecord t : r.trace().trials()) {
                Parameters p = t.parameters();
                CurveSuite.Curve c = CurveSuite.curveOf(p);
                sb.append(CsvWriters.field(r.setup().label())).append(',').append(r.seed()).append(',').append(t.index()).append(',')
                        .append(t.trialJobId()).append(',').append(t.parameterId()).append(',').append(p.get("lr")).append(',')
                        .append(p.get("batch_size")).append(',').append(p.get("width")).append(',')
                        .append(CsvWriters.field(String.valueOf(p.get("schedule")))).append(',').append(c.family().name().toLowerCase(Locale.ROOT))
                        .append(',').append(t.budget()).append(',').append(t.epochs()).append(',').append(t.end()).append(',')
                        .append(num(t.lastValue())).append(',').append(c.finalValue()).append('\n');
            }
        }
        return sb.toString();
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : Double.toString(v);
    }

    /** Per-configuration statistics over the seeds that succeeded. */
    record Stats(CurveSetup setup, int runs, int failed, Quantiles epochs, Quantiles epochPercent, Quantiles regret, Quantiles completed,
            Quantiles killed, int withoutResult, Quantiles reachPercent) {}

    static Optional<Stats> stats(CurveSetup setup, List<CurveRun> runs, Map<Long, Long> baselineEpochs) {
        return stats(setup, runs, baselineEpochs, Double.NaN);
    }

    /** As above, plus the epochs each run took to choose a trial of regret at most {@code target} (NaN: not computed). */
    static Optional<Stats> stats(CurveSetup setup, List<CurveRun> runs, Map<Long, Long> baselineEpochs, double target) {
        List<CurveRun> mine = runs.stream().filter(r -> r.setup().equals(setup)).toList();
        List<CurveRun> ok = mine.stream().filter(CurveRun::succeeded).toList();
        if (ok.isEmpty()) {
            return Optional.empty();
        }
        double[] epochs = ok.stream().mapToDouble(CurveRun::epochs).toArray();
        double[] percent = ok.stream().filter(r -> baselineEpochs.containsKey(r.seed()))
                .mapToDouble(r -> 100.0 * r.epochs() / baselineEpochs.get(r.seed())).toArray();
        double[] regrets = ok.stream().mapToDouble(CurveRun::regret).filter(v -> !Double.isNaN(v)).toArray();
        return Optional.of(new Stats(setup, mine.size(), mine.size() - ok.size(), Quantiles.of(epochs),
                percent.length == 0 ? null : Quantiles.of(percent), regrets.length == 0 ? null : Quantiles.of(regrets),
                Quantiles.of(ok.stream().mapToDouble(CurveRun::completed).toArray()),
                Quantiles.of(ok.stream().mapToDouble(CurveRun::killed).toArray()), ok.size() - regrets.length,
                Double.isNaN(target) || baselineEpochs.isEmpty() ? null : Quantiles.of(ok.stream().filter(r -> baselineEpochs.containsKey(r.seed()))
                        .mapToDouble(r -> 100.0 * r.epochsToReach(target) / baselineEpochs.get(r.seed())).toArray())));
    }

    /** Resamples of the seeds behind the interval of a median-regret ratio. */
    static final int BOOTSTRAP_RESAMPLES = 2000;

    /**
     * How far the ratio of a configuration's median regret to the baseline's moves with the seeds: its
     * 5th and 95th percentiles over {@value #BOOTSTRAP_RESAMPLES} resamples, with replacement, of the seeds
     * on which both have a regret (a resampled seed brings both of its runs), from a fixed generator; empty
     * when fewer than 2 seeds are shared.
     */
    static Optional<double[]> regretRatioInterval(CurveSetup setup, List<CurveRun> runs) {
        Map<Long, Double> base = new HashMap<>();
        runs.stream().filter(r -> r.setup().label().equals(CurveSetup.BASELINE) && r.succeeded() && !Double.isNaN(r.regret()))
                .forEach(r -> base.put(r.seed(), r.regret()));
        List<double[]> pairs = runs.stream().filter(r -> r.setup().equals(setup) && r.succeeded() && !Double.isNaN(r.regret())
                && base.containsKey(r.seed())).map(r -> new double[] {r.regret(), base.get(r.seed())}).toList();
        int n = pairs.size();
        if (n < 2) {
            return Optional.empty();
        }
        SplittableRandom random = new SplittableRandom(1);
        double[] ratios = new double[BOOTSTRAP_RESAMPLES];
        double[] mine = new double[n];
        double[] theirs = new double[n];
        for (int b = 0; b < ratios.length; b++) {
            for (int i = 0; i < n; i++) {
                double[] pair = pairs.get(random.nextInt(n));
                mine[i] = pair[0];
                theirs[i] = pair[1];
            }
            ratios[b] = Quantiles.of(mine).median() / Quantiles.of(theirs).median();
        }
        Arrays.sort(ratios);
        return Optional.of(new double[] {ratios[(int) Math.floor(0.05 * (ratios.length - 1))], ratios[(int) Math.ceil(0.95 * (ratios.length - 1))]});
    }

    static Map<Long, Long> baselineEpochs(List<CurveRun> runs) {
        Map<Long, Long> m = new HashMap<>();
        runs.stream().filter(r -> r.setup().label().equals(CurveSetup.BASELINE) && r.succeeded()).forEach(r -> m.put(r.seed(), r.epochs()));
        return m;
    }

    static String summary(CurveBenchmark.Config config, List<CurveSetup> setups, List<CurveRun> runs, List<String> skipped) {
        Map<Long, Long> base = baselineEpochs(runs);
        Optional<Stats> baseline = setups.stream().filter(s -> s.label().equals(CurveSetup.BASELINE)).findFirst()
                .flatMap(s -> stats(s, runs, base));
        StringBuilder sb = new StringBuilder("# Learning-curve benchmark\n\n");
        sb.append(String.format(Locale.ROOT, "Seeds %s; %d trial slots; tuner configurations: %s, %d trials of up to %d epochs; "
                        + "advisors: a budget of %d epochs (%s of the %d a run without early stopping spends). "
                        + "Regret: the true final value of the completed (full-length) trial with the best reported final value, "
                        + "minus the best final value of the space (%s). Epochs %%: each run's epochs over the baseline's with the same seed. "
                        + "Epochs to reach: the epochs a run had spent when the trial it would have chosen at that point first had at most "
                        + "the baseline's median regret (never: not within the run). "
                        + "Cells are median [Q1, Q3] over seeds; the regret ratio's interval is its 5th to 95th percentile over "
                        + "%d paired bootstrap resamples of the seeds: a target met at one end of it and missed at the other is within "
                        + "the seeds' noise. Suite: %s (%s).%s%s%n%n",
                Numbers.seeds(config.seeds()), config.concurrency(), config.tuner(), config.trials(), CurveSuite.EPOCHS,
                config.advisorEpochs(), pct(100 * config.advisorBudget()), config.trials() * CurveSuite.EPOCHS, CurveSuite.OPTIMUM,
                BOOTSTRAP_RESAMPLES, config.pace().label(), config.pace() == SuitePace.LATE_SETTLING ? "slow starters overtake up to 30 epochs in"
                        : "every time constant of the late-settling suite x " + config.pace().timeScale(),
                config.perfectRungs() ? " **Perfect rungs (an analysis, not a real run): an advisor's trial that stops at a budget "
                        + "below the full one reports its true final value as its result, so every rung is ranked as with full knowledge.**"
                        : "",
                config.includeIntermediateResults() ? " A stopped trial reaches the tuner with its last intermediate value as its result "
                        + "(NNI_INCLUDE_INTERMEDIATE_RESULTS=true)." : ""));
        double reach = baseline.map(b -> b.regret() == null ? Double.NaN : b.regret().median()).orElse(Double.NaN);
        sb.append("| configuration | epochs spent | % of no early stopping | regret | median regret vs none [5%, 95%] | trials completed "
                + "| trials killed | epochs to reach none's median regret, % | target | met |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (CurveSetup s : setups) {
            Optional<Stats> st = stats(s, runs, base, reach);
            if (st.isEmpty()) {
                sb.append("| ").append(s.label()).append(" | every run failed | | | | | | | | |\n");
                continue;
            }
            Stats x = st.get();
            String ratio = baseline.isPresent() && baseline.get().regret() != null && x.regret() != null
                    ? signedPct(100 * (x.regret().median() / baseline.get().regret().median() - 1)) : "n/a";
            if (!ratio.equals("n/a") && !s.label().equals(CurveSetup.BASELINE)) {
                ratio += regretRatioInterval(s, runs).map(iv -> " [" + signedPct(100 * (iv[0] - 1)) + ", " + signedPct(100 * (iv[1] - 1)) + "]")
                        .orElse("");
            }
            double[] target = s.algorithm() == null ? null : TARGETS.get(s.algorithm().toLowerCase(Locale.ROOT));
            String targetText = target == null ? "—" : "≤ " + pct(target[0]) + " epochs, regret " + (target[1] > 1 ? "≤ +" + pct(100 * (target[1] - 1)) : "≤ none's");
            String met = target == null ? "—" : verdict(x, baseline, target);
            sb.append("| ").append(s.label()).append(" | ").append(Numbers.quartiles(x.epochs())).append(" | ")
                    .append(x.epochPercent() == null ? "n/a" : Numbers.quartiles(x.epochPercent())).append(" | ")
                    .append(x.regret() == null ? "n/a" : Numbers.quartiles(x.regret())).append(" | ").append(ratio).append(" | ")
                    .append(Numbers.quartiles(x.completed())).append(" | ").append(Numbers.quartiles(x.killed())).append(" | ")
                    .append(x.reachPercent() == null ? "n/a" : Numbers.quartiles(x.reachPercent()).replace("inf", "never")).append(" | ")
                    .append(targetText).append(" | ").append(met).append(" |\n");
        }
        sb.append('\n');
        for (CurveSetup s : setups) {
            stats(s, runs, base).ifPresent(x -> {
                if (x.withoutResult() > 0) {
                    sb.append("- ").append(s.label()).append(": ").append(x.withoutResult())
                            .append(" run(s) completed no full-length trial and are left out of the regret.\n");
                }
            });
        }
        List<CurveRun> failed = runs.stream().filter(r -> !r.succeeded()).toList();
        if (!failed.isEmpty()) {
            sb.append("\nFailed runs:\n\n");
            failed.stream().limit(20).forEach(r -> sb.append("- ").append(r.setup().label()).append(" seed ").append(r.seed()).append(": ")
                    .append(r.failure().replace("|", "\\|")).append('\n'));
        }
        if (!skipped.isEmpty()) {
            sb.append("\nNot run:\n\n");
            skipped.forEach(m -> sb.append("- ").append(m).append('\n'));
        }
        sb.append("\nConfigurations:\n\n");
        setups.forEach(s -> sb.append("- ").append(s.label()).append(": ").append(s.describe()).append('\n'));
        sb.append(suiteProfile(config.pace()));
        return sb.toString();
    }

    /** How well a configuration's value after k epochs predicts its final value, over random configurations. */
    static String suiteProfile(SuitePace pace) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%nHow early the suite's ranking settles: Spearman rank correlation "
                + "between the value observed after k epochs and the final value, over %d configurations drawn from the prior "
                + "(the epoch a rule first judges at needs a high one):%n%n| k | ", PROFILE_SAMPLES));
        StringBuilder rule = new StringBuilder("|---|");
        StringBuilder row = new StringBuilder("| rank correlation |");
        for (int k : PROFILE_EPOCHS) {
            sb.append(k).append(" | ");
            rule.append("---|");
            row.append(' ').append(String.format(Locale.ROOT, "%.2f", CurveSuite.rankCorrelation(k, PROFILE_SAMPLES, 1, pace))).append(" |");
        }
        return sb.append('\n').append(rule).append('\n').append(row).append('\n').toString();
    }

    private static final int PROFILE_SAMPLES = 5000;
    private static final int[] PROFILE_EPOCHS = {1, 2, 3, 5, 8, 10, 15, 20, 30, 40};

    private static String verdict(Stats x, Optional<Stats> baseline, double[] target) {
        if (baseline.isEmpty() || baseline.get().regret() == null || x.regret() == null || x.epochPercent() == null) {
            return "n/a";
        }
        double epochs = x.epochPercent().median();
        double ratio = x.regret().median() / baseline.get().regret().median();
        List<String> misses = new ArrayList<>();
        if (epochs > target[0]) {
            misses.add("epochs " + pct(epochs) + " > " + pct(target[0]));
        }
        if (ratio > target[1]) {
            misses.add("regret " + signedPct(100 * (ratio - 1)) + " > " + (target[1] > 1 ? "+" + pct(100 * (target[1] - 1)) : "+0%"));
        }
        return misses.isEmpty() ? "yes" : "no: " + String.join(", ", misses);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v);
    }

    private static String signedPct(double v) {
        return String.format(Locale.ROOT, "%+.0f%%", v);
    }

    static String plot(CurveBenchmark.Config config, List<CurveSetup> setups, List<CurveRun> runs) {
        Map<Long, Long> base = baselineEpochs(runs);
        List<SvgPlot.ErrorPoint> points = new ArrayList<>();
        List<SvgPlot.LegendEntry> legend = new ArrayList<>();
        legend.add(new SvgPlot.LegendEntry("median, whiskers Q1..Q3", null, null));
        Optional<Stats> baseline = Optional.empty();
        // one colour per algorithm, one shape per variant (defaults, @auto, @10, ...), so a sweep reads as a family
        List<String> algorithms = new ArrayList<>();
        List<String> variants = new ArrayList<>();
        variants.add("");
        for (CurveSetup s : setups) {
            Optional<Stats> st = stats(s, runs, base);
            String algorithm = s.algorithm() == null ? s.label() : s.algorithm();
            int at = s.label().indexOf('@');
            String variant = at < 0 ? "" : s.label().substring(at);
            if (!algorithms.contains(algorithm)) {
                algorithms.add(algorithm);
            }
            if (!variants.contains(variant)) {
                variants.add(variant);
            }
            String color = SvgPlot.PALETTE.get(algorithms.indexOf(algorithm) % SvgPlot.PALETTE.size());
            String shape = SvgPlot.SHAPES.get(variants.indexOf(variant) % SvgPlot.SHAPES.size());
            String pointLabel = variant.isEmpty() ? s.label() : variant;
            if (st.isEmpty() || st.get().regret() == null || st.get().epochPercent() == null) {
                continue;
            }
            Stats x = st.get();
            if (s.label().equals(CurveSetup.BASELINE)) {
                baseline = st;
            }
            points.add(new SvgPlot.ErrorPoint(pointLabel, color, shape, x.epochPercent().median(), x.epochPercent().q1(),
                    x.epochPercent().q3(), x.regret().median(), x.regret().q1(), x.regret().q3()));
            legend.add(new SvgPlot.LegendEntry(s.label() + ": " + Numbers.sig3(x.regret().median()) + " @ "
                    + pct(x.epochPercent().median()), color, shape));
        }
        List<SvgPlot.Guide> guides = new ArrayList<>();
        guides.add(new SvgPlot.Guide(true, 50, "50%"));
        guides.add(new SvgPlot.Guide(true, 60, "60%"));
        baseline.ifPresent(b -> {
            guides.add(new SvgPlot.Guide(false, b.regret().median(), "none's median regret"));
            guides.add(new SvgPlot.Guide(false, 1.1 * b.regret().median(), "+10%"));
        });
        String title = String.format(Locale.ROOT, "Early stopping on the %s learning-curve suite: %d seeds, %d trials x %d epochs, %d slots%s",
                config.pace().label(), config.seeds().size(), config.trials(), CurveSuite.EPOCHS, config.concurrency(),
                config.perfectRungs() ? " (perfect rungs)" : "");
        return SvgPlot.renderScatter(title, "epochs spent, % of no early stopping (same seed)", "regret of the chosen trial (log)",
                points, guides, legend);
    }
}
