package org.tunekit.tuners.turbo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.SeenParameters;
import org.tunekit.tuners.tpe.TpeTunerProvider;

class TurboThenTest {
    /** A small first region: 4 initial points, halved after 2 failures, collapsed below 0.1. */
    private static final Map<String, Object> ARGS = Map.of("seed", 7L, "optimize_mode", "minimize", "initial_points", 4L,
            "failure_tolerance", 2L, "initial_length", 0.8, "min_length", 0.1);

    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).loguniform("lr", 1e-4, 1)
            .choice("kind", "a", "b").build();

    private static Supplier<Tuner> tpe() {
        return () -> new TpeTunerProvider().create(ClassArguments.of(Map.of("seed", 7L, "optimize_mode", "minimize")));
    }

    /** A flat function: no result improves on the region's best, so the first region collapses at its 12th result. */
    private static double flat(Parameters p) {
        return 1.0;
    }

    /** A sphere around x = 0.3, lr = 0.01 (on the log scale), kind "b". */
    private static double sphere(Parameters p) {
        double x = p.getDouble("x") - 0.3;
        double l = Math.log10(p.getDouble("lr")) + 2;
        return x * x + 0.1 * l * l + ("b".equals(p.get("kind")) ? 0 : 0.2);
    }

    /** Asks {@code n} trials from id {@code firstId} on in rounds of {@code batch}, reporting {@code f}; returns what was run. */
    private static List<TrialResult> run(Tuner tuner, long firstId, int n, int batch, ToDoubleFunction<Parameters> f) {
        List<TrialResult> out = new ArrayList<>();
        long id = firstId;
        while (out.size() < n) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                ids.add(id++);
            }
            List<Parameters> round = tuner.generateMultipleParameters(ids);
            for (int i = 0; i < round.size(); i++) {
                TrialResult r = new TrialResult(ids.get(i), round.get(i), Metric.of(f.applyAsDouble(round.get(i))), false, null);
                tuner.receiveTrialResult(r);
                tuner.trialEnd(r.parameterId(), true);
                out.add(r);
            }
        }
        return out;
    }

    private static List<ImportedTrial> imported(List<TrialResult> results) {
        return results.stream().map(r -> new ImportedTrial(r.parameters(), r.metric())).toList();
    }

    @Test
    void untilTheFirstRegionCollapsesItSuggestsAsTurboAndCreatesNoSuccessor() {
        AtomicInteger created = new AtomicInteger();
        TurboThen then = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), () -> {
            created.incrementAndGet();
            return tpe().get();
        });
        Tuner turbo = TurboTuner.create(ClassArguments.of(ARGS));
        then.updateSearchSpace(SPACE);
        turbo.updateSearchSpace(SPACE);
        List<TrialResult> a = run(then, 0, 11, 1, TurboThenTest::flat);
        List<TrialResult> b = run(turbo, 0, 11, 1, TurboThenTest::flat);
        assertThat(a).isEqualTo(b);
        assertThat(then.handedOver()).isFalse();
        assertThat(created).hasValue(0);
    }

    @Test
    void atTheCollapseTheSuccessorTakesOverWithEveryResultSoFar() throws Exception {
        TurboThen then = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), tpe());
        then.updateSearchSpace(SPACE);
        List<TrialResult> before = run(then, 0, 12, 1, TurboThenTest::flat);
        assertThat(then.handedOver()).isTrue();
        // the successor suggests as a tuner of its own given the same results would
        List<TrialResult> after = run(then, 12, 6, 1, TurboThenTest::sphere);
        Tuner alone = tpe().get();
        alone.updateSearchSpace(SPACE);
        alone.importData(imported(before));
        for (TrialResult r : after) {
            assertThat(alone.generateParameters(r.parameterId())).isEqualTo(r.parameters());
            alone.receiveTrialResult(r);
            alone.trialEnd(r.parameterId(), true);
        }
        // and not as TuRBO would have: its restarted region begins a new Sobol design
        Tuner turbo = TurboTuner.create(ClassArguments.of(ARGS));
        turbo.updateSearchSpace(SPACE);
        turbo.importData(imported(before));
        assertThat(turbo.generateParameters(12)).isNotEqualTo(after.get(0).parameters());
    }

    @Test
    void trialsRunningAtTheCollapseAreTheSuccessorsOwnSoNoParameterSetIsSuggestedTwice() {
        // 24 parameter sets, 4 trials at a time: the first region collapses with 3 of TuRBO's trials running
        SearchSpace small = SearchSpace.builder().choice("a", 1, 2, 3, 4, 5, 6).choice("b", "w", "x", "y", "z").build();
        TurboThen then = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), tpe());
        then.updateSearchSpace(small);
        ArrayDeque<TrialResult> running = new ArrayDeque<>();
        Set<String> suggested = new HashSet<>(); // compared by value, as SeenParameters does
        long id = 0;
        int runningAtHandOver = -1;
        while (true) {
            while (running.size() < 4) {
                Parameters p;
                try {
                    p = then.generateParameters(id);
                } catch (NoMoreTrialsException e) {
                    break;
                }
                assertThat(suggested.add(SeenParameters.keyOf(p))).as("trial %d suggests %s again", id, p).isTrue();
                running.add(new TrialResult(id++, p, Metric.of(flat(p)), false, null));
            }
            if (running.isEmpty()) {
                break;
            }
            TrialResult done = running.poll();
            then.receiveTrialResult(done);
            then.trialEnd(done.parameterId(), true);
            if (runningAtHandOver < 0 && then.handedOver()) {
                runningAtHandOver = running.size();
            }
        }
        assertThat(runningAtHandOver).isEqualTo(3);
        assertThat(suggested).hasSize(24);
    }

    @Test
    void aResumedRunReplaysToTheSameHandOverAndGoesOnAsTheUninterruptedOne() {
        for (int batch : new int[] {1, 4}) {
            TurboThen first = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), tpe());
            first.updateSearchSpace(SPACE);
            List<TrialResult> done = new ArrayList<>(run(first, 0, 12, batch, TurboThenTest::flat));
            done.addAll(run(first, done.size(), 8, batch, TurboThenTest::sphere));
            assertThat(first.handedOver()).as("batches of %d", batch).isTrue();

            TurboThen resumed = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), tpe());
            resumed.updateSearchSpace(SPACE);
            resumed.importData(imported(done));
            assertThat(resumed.handedOver()).isTrue();
            // the results may also come before the space: TuRBO holds them until it has one
            TurboThen spaceLast = (TurboThen) TurboThen.create(ClassArguments.of(ARGS), tpe());
            spaceLast.importData(imported(done));
            assertThat(spaceLast.handedOver()).isFalse();
            spaceLast.updateSearchSpace(SPACE);
            assertThat(spaceLast.handedOver()).isTrue();
            List<Long> next = List.of((long) done.size(), done.size() + 1L, done.size() + 2L, done.size() + 3L);
            List<Parameters> expected = first.generateMultipleParameters(next);
            assertThat(resumed.generateMultipleParameters(next)).as("batches of %d", batch).isEqualTo(expected);
            assertThat(spaceLast.generateMultipleParameters(next)).as("batches of %d, space last", batch).isEqualTo(expected);
        }
    }
}
