package org.tunekit.tuners.multiobjective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.objectives.Hypervolume;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.sdk.testkit.TunerTestKit;
import org.tunekit.tuners.nsga2.Nsga2TunerProvider;
import org.tunekit.tuners.random.RandomTunerProvider;
import org.tunekit.tuners.sobol.SobolTunerProvider;
import org.tunekit.tuners.tpe.MotpeTunerProvider;

/** MOTPE and NSGA2 against the SDK's tuner contract, their argument errors, and their fronts on a small ZDT1. */
class MultiObjectiveTunersTest {
    private static final List<Object> TWO = List.of(Map.of("metric", "default", "mode", "minimize"), Map.of("metric", "cost", "mode", "minimize"));

    /**
     * Gives a multi-objective tuner the metric objects it needs under the test kit, which reports
     * plain numbers: a number v becomes {default: v, cost: (v - 0.3)^2 + |v|/10}, an objective at
     * odds with the first near 0.3. It keeps no checkpoint, as neither MOTPE nor NSGA2 does: both
     * resume by replay.
     */
    private static final class WithCost implements Tuner {
        final Tuner tuner;

        WithCost(Tuner tuner) {
            this.tuner = tuner;
        }

        static Metric dict(Metric m) {
            double v = m.value();
            return Metric.fromReported(Map.of("default", v, "cost", (v - 0.3) * (v - 0.3) + Math.abs(v) / 10));
        }

        @Override
        public void open(TunerContext context) {
            tuner.open(context);
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            tuner.updateSearchSpace(space);
        }

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            return tuner.generateParameters(parameterId);
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
            return tuner.generateMultipleParameters(parameterIds);
        }

        @Override
        public void receiveTrialResult(TrialResult r) {
            tuner.receiveTrialResult(new TrialResult(r.parameterId(), r.parameters(), dict(r.metric()), r.customized(), r.trialJobId()));
        }

        @Override
        public void trialEnd(long parameterId, boolean success) {
            tuner.trialEnd(parameterId, success);
        }

        @Override
        public void importData(List<ImportedTrial> trials) {
            tuner.importData(trials.stream().map(t -> new ImportedTrial(t.parameters(), dict(t.metric()), t.extra())).toList());
        }

    }

    private static TunerTestKit kit(TunerProvider provider, Map<String, Object> extra) {
        Map<String, Object> args = new LinkedHashMap<>(Map.of("seed", 7, "objectives", TWO));
        args.putAll(extra);
        return TunerTestKit.forTuner(a -> new WithCost(provider.create(a))).withArguments(args);
    }

    @Test
    void motpePassesTheTunerContract() {
        // a short startup so that the contract's short runs reach the model
        kit(new MotpeTunerProvider(), Map.of("tpe_args", Map.of("n_startup_jobs", 3))).checkContract();
    }

    @Test
    void multivariateMotpePassesTheTunerContract() {
        kit(new MotpeTunerProvider(), Map.of("multivariate", true, "tpe_args", Map.of("n_startup_jobs", 3))).checkContract();
    }

    @Test
    void nsga2PassesTheTunerContract() {
        kit(new Nsga2TunerProvider(), Map.of("population_size", 4)).checkContract();
    }

    @Test
    void randomAndSobolAcceptAndCheckObjectives() {
        for (TunerProvider p : List.of(new RandomTunerProvider(), new SobolTunerProvider())) {
            assertThat(p.create(ClassArguments.of(Map.of("seed", 1, "objectives", TWO)))).isNotNull();
            assertThatThrownBy(() -> p.create(ClassArguments.of(Map.of("objectives", List.of(Map.of("metric", "a", "mode", "up"))))))
                    .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("objectives[0].mode");
        }
    }

    @Test
    void argumentErrorsAreNamed() {
        for (TunerProvider p : List.of(new MotpeTunerProvider(), new Nsga2TunerProvider())) {
            assertThatThrownBy(() -> p.create(ClassArguments.of(Map.of("seed", 1))))
                    .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining(p.name()).hasMessageContaining("at least 2");
            assertThatThrownBy(() -> p.create(ClassArguments.of(Map.of("objectives", List.of(Map.of("metric", "a", "mode", "minimize"))))))
                    .hasMessageContaining("only 'a'");
            assertThatThrownBy(() -> p.create(ClassArguments.of(Map.of("objectives", TWO, "optimize_mode", "maximize"))))
                    .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'optimize_mode'");
        }
        assertThatThrownBy(() -> new Nsga2TunerProvider().create(ClassArguments.of(Map.of("objectives", TWO, "population_size", 1))))
                .hasMessageContaining("population_size");
    }

    @Test
    void aResultWithoutAnObjectivesKeyIsRefusedNamingTrialAndKey() throws NoMoreTrialsException {
        for (TunerProvider p : List.of(new MotpeTunerProvider(), new Nsga2TunerProvider())) {
            Tuner t = p.create(ClassArguments.of(Map.of("seed", 1, "objectives", TWO)));
            t.updateSearchSpace(zdtSpace(3));
            Parameters x = t.generateParameters(0);
            TrialResult r = new TrialResult(0, x, Metric.fromReported(Map.of("default", 1.0, "latency", 2.0)), false, "Xy12z");
            assertThatThrownBy(() -> t.receiveTrialResult(r)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("trial Xy12z (parameter id 0)").hasMessageContaining("'cost'");
        }
    }

    private static SearchSpace zdtSpace(int n) {
        Map<String, Object> def = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            def.put("x" + i, Map.of("_type", "uniform", "_value", List.of(0, 1)));
        }
        return SearchSpace.parse(def);
    }

    /** ZDT1 on n variables: (f1, f2). */
    private static double[] zdt1(Parameters p, int n) {
        double f1 = p.getDouble("x0");
        double s = 0;
        for (int i = 1; i < n; i++) {
            s += p.getDouble("x" + i);
        }
        double g = 1 + 9 * s / (n - 1);
        return new double[] {f1, g * (1 - Math.sqrt(f1 / g))};
    }

    /** The hypervolume (reference (1.1, 10)) of a run of {@code trials} in batches of {@code batch}. */
    private static double run(TunerProvider provider, long seed, int trials, int batch) {
        int n = 5;
        Tuner t = provider.create(ClassArguments.of(Map.of("seed", seed, "objectives",
                List.of(Map.of("metric", "f1", "mode", "minimize"), Map.of("metric", "f2", "mode", "minimize")))));
        t.updateSearchSpace(zdtSpace(n));
        List<double[]> points = new ArrayList<>();
        long id = 0;
        while (points.size() < trials) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                ids.add(id++);
            }
            List<Parameters> ps = t.generateMultipleParameters(ids);
            for (int i = 0; i < ps.size(); i++) {
                double[] f = zdt1(ps.get(i), n);
                t.receiveTrialResult(new TrialResult(ids.get(i), ps.get(i), Metric.fromReported(Map.of("default", f[0], "f1", f[0], "f2", f[1])),
                        false, "t" + ids.get(i)));
                t.trialEnd(ids.get(i), true);
                points.add(f);
            }
        }
        return Hypervolume.of(points.toArray(new double[0][]), new double[] {1.1, 10});
    }

    private static double median(TunerProvider provider, int batch) {
        double[] hv = new double[5];
        for (int s = 0; s < hv.length; s++) {
            hv[s] = run(provider, s, 80, batch);
        }
        Arrays.sort(hv);
        return hv[2];
    }

    @Test
    void bothFindABetterFrontThanRandomSequentiallyAndInBatches() {
        for (int batch : new int[] {1, 8}) {
            double random = median(new RandomTunerProvider(), batch);
            assertThat(median(new MotpeTunerProvider(), batch)).as("MOTPE, batch %d", batch).isGreaterThan(random);
            assertThat(median(new Nsga2TunerProvider(), batch)).as("NSGA2, batch %d", batch).isGreaterThan(random);
        }
    }

    @Test
    void theSameSeedGivesTheSameRun() {
        for (TunerProvider p : List.of(new MotpeTunerProvider(), new Nsga2TunerProvider())) {
            assertThat(run(p, 3, 40, 4)).as(p.name()).isEqualTo(run(p, 3, 40, 4));
        }
    }
}
