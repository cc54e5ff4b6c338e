package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.demo.TestFunction;
import org.tunekit.demo.TestFunctions;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

class RunDriverTest {
    private static final TestFunction BRANIN = TestFunctions.branin();
    private static final SearchSpace SPACE = SearchSpace.parse(BRANIN.space());

    private static RunResult run(SamplingTestTuner tuner, Mode mode, long seed, int trials) {
        return RunDriver.run(new RunKey("sampler", "branin", mode, seed), tuner, BRANIN, SPACE, trials);
    }

    @Test
    void sameSeedGivesTheSameRegretAndAnotherSeedDoesNot() {
        RunResult a = run(new SamplingTestTuner(3, Long.MAX_VALUE), Mode.SEQUENTIAL, 3, 100);
        RunResult b = run(new SamplingTestTuner(3, Long.MAX_VALUE), Mode.SEQUENTIAL, 3, 100);
        RunResult c = run(new SamplingTestTuner(4, Long.MAX_VALUE), Mode.SEQUENTIAL, 4, 100);
        assertThat(a.bestRegret()).containsExactly(b.bestRegret());
        assertThat(a.bestRegret()).isNotEqualTo(c.bestRegret());
    }

    @Test
    void sequentialModeAsksForOneSetAtATimeWithIdsFromZeroAndEndsEachTrialAfterItsResult() {
        SamplingTestTuner tuner = new SamplingTestTuner(1, Long.MAX_VALUE);
        RunResult r = run(tuner, Mode.SEQUENTIAL, 1, 5);
        assertThat(tuner.calls).containsExactly("updateSearchSpace",
                "generateParameters(0)", "receiveTrialResult(0)", "trialEnd(0, true)",
                "generateParameters(1)", "receiveTrialResult(1)", "trialEnd(1, true)",
                "generateParameters(2)", "receiveTrialResult(2)", "trialEnd(2, true)",
                "generateParameters(3)", "receiveTrialResult(3)", "trialEnd(3, true)",
                "generateParameters(4)", "receiveTrialResult(4)", "trialEnd(4, true)");
        assertThat(r.evaluated()).isEqualTo(5);
        assertThat(r.succeeded()).isTrue();
    }

    @Test
    void batchModeAsksForTwelveEightsAndAFinalFour() {
        SamplingTestTuner tuner = new SamplingTestTuner(2, Long.MAX_VALUE);
        RunResult r = run(tuner, Mode.BATCH, 2, 100);
        List<String> requests = tuner.calls.stream().filter(c -> c.startsWith("generate")).toList();
        assertThat(requests).hasSize(13);
        for (int b = 0; b < 12; b++) {
            List<Long> ids = new ArrayList<>();
            for (long id = 8L * b; id < 8L * b + 8; id++) {
                ids.add(id);
            }
            assertThat(requests.get(b)).isEqualTo("generateMultipleParameters(" + ids + ")");
        }
        assertThat(requests.get(12)).isEqualTo("generateMultipleParameters([96, 97, 98, 99])");
        // every set of a batch is asked for before any result of that batch is reported
        int firstRequest = tuner.calls.indexOf(requests.get(1));
        assertThat(tuner.calls.subList(1, firstRequest)).filteredOn(c -> c.startsWith("receiveTrialResult")).hasSize(8);
        assertThat(tuner.calls.get(2)).isEqualTo("receiveTrialResult(0)");
        assertThat(tuner.calls.get(3)).isEqualTo("trialEnd(0, true)");
        assertThat(r.evaluated()).isEqualTo(100);
    }

    @Test
    void theTunerReceivesTheFinalValuesAndRegretIsTheirRunningMinimumLessTheOptimum() {
        SamplingTestTuner tuner = new SamplingTestTuner(5, Long.MAX_VALUE);
        RunResult r = run(tuner, Mode.BATCH, 5, 30);
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 30; i++) {
            TrialResult tr = tuner.results.get(i);
            assertThat(tr.parameterId()).isEqualTo(i);
            assertThat(tr.customized()).isFalse();
            assertThat(tr.metric().value()).isEqualTo(BRANIN.evaluate(tr.parameters()));
            best = Math.min(best, tr.metric().value());
            assertThat(r.regretAfter(i + 1)).isEqualTo(best - BRANIN.optimum());
        }
        assertThat(r.regretAfter(30)).isPositive();
    }

    @Test
    void aTunerThatRunsOutKeepsItsLastBestForTheRestOfTheBudget() {
        RunResult seq = run(new SamplingTestTuner(6, 30), Mode.SEQUENTIAL, 6, 100);
        assertThat(seq.evaluated()).isEqualTo(30);
        for (int t = 31; t <= 100; t++) {
            assertThat(seq.regretAfter(t)).isEqualTo(seq.regretAfter(30));
        }
        SamplingTestTuner batchTuner = new SamplingTestTuner(6, 20);
        RunResult batch = run(batchTuner, Mode.BATCH, 6, 100);
        assertThat(batch.evaluated()).isEqualTo(20);
        assertThat(batchTuner.calls.stream().filter(c -> c.startsWith("generate"))).hasSize(3);
        assertThat(batch.regretAfter(100)).isEqualTo(batch.regretAfter(20));
        assertThat(batch.bestRegret()).startsWith(seq.bestRegret()[0]);
    }

    @Test
    void aTunerWithNothingAtAllHasInfiniteRegret() {
        RunResult r = run(new SamplingTestTuner(0, 0), Mode.SEQUENTIAL, 0, 10);
        assertThat(r.evaluated()).isZero();
        assertThat(r.regretAfter(10)).isInfinite();
    }

    @Test
    void aTunerBreakingTheContractIsNamed() {
        Tuner tooMany = new Tuner() {
            @Override
            public void updateSearchSpace(SearchSpace space) {}

            @Override
            public Parameters generateParameters(long id) throws NoMoreTrialsException {
                return Parameters.of(Map.of("x1", 0.0, "x2", 0.0));
            }

            @Override
            public List<Parameters> generateMultipleParameters(List<Long> ids) {
                return List.of(Parameters.of(Map.of("x1", 0.0, "x2", 0.0)), Parameters.of(Map.of("x1", 0.0, "x2", 0.0)),
                        Parameters.of(Map.of("x1", 0.0, "x2", 0.0)), Parameters.of(Map.of("x1", 0.0, "x2", 0.0)),
                        Parameters.of(Map.of("x1", 0.0, "x2", 0.0)), Parameters.of(Map.of("x1", 0.0, "x2", 0.0)),
                        Parameters.of(Map.of("x1", 0.0, "x2", 0.0)), Parameters.of(Map.of("x1", 0.0, "x2", 0.0)),
                        Parameters.of(Map.of("x1", 0.0, "x2", 0.0)));
            }

            @Override
            public void receiveTrialResult(TrialResult result) {}
        };
        assertThatThrownBy(() -> RunDriver.run(new RunKey("t", "branin", Mode.BATCH, 0), tooMany, BRANIN, SPACE, 16))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("returned 9 parameter sets for the 8 ids [0, 1, 2, 3, 4, 5, 6, 7]");
    }

    @Test
    void aTunerThatThrowsGivesAFailedRunNotAFailedBenchmark() {
        QualityBenchmark.TunerFactory broken = (setup, seed) -> {
            throw new IllegalArgumentException("bad space for " + setup.label());
        };
        RunResult r = QualityBenchmark.runOne(new RunKey("x", "branin", Mode.SEQUENTIAL, 0), TunerSetup.parse("x"), BRANIN, SPACE, 10, broken);
        assertThat(r.succeeded()).isFalse();
        assertThat(r.failure()).contains("bad space for x");
    }

    @Test
    void trialJobIdsAreShortAndDistinct() {
        assertThat(RunDriver.trialJobId(0)).isEqualTo("T0000");
        assertThat(RunDriver.trialJobId(99)).isEqualTo("T002r");
        assertThat(RunDriver.trialJobId(36)).isNotEqualTo(RunDriver.trialJobId(35));
    }

    /**
     * Hands out rounds of three; refuses while a round is out, counting the refused ids, and sends
     * as many of the next round as were refused when the last member of a round reports.
     */
    static final class RoundsOfThree implements Tuner {
        final List<String> calls = new ArrayList<>();
        org.tunekit.sdk.TunerContext context;
        int waiting = 3;
        int reported;
        int unfilled;

        @Override
        public void open(org.tunekit.sdk.TunerContext c) {
            context = c;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {}

        @Override
        public Parameters generateParameters(long id) throws NoMoreTrialsException {
            List<Parameters> got = generateMultipleParameters(List.of(id));
            if (got.isEmpty()) {
                throw new NoMoreTrialsException("round out");
            }
            return got.get(0);
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> ids) {
            List<Parameters> out = new ArrayList<>();
            for (long id : ids) {
                if (waiting == 0) {
                    unfilled++;
                    calls.add("refused " + id);
                } else {
                    waiting--;
                    out.add(Parameters.of(Map.of("x1", 0.5, "x2", 0.5)));
                }
            }
            return out;
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            calls.add("result " + result.parameterId());
            if (++reported == 3) {
                reported = 0;
                waiting = 3;
                while (unfilled > 0 && waiting > 0) {
                    unfilled--;
                    waiting--;
                    calls.add("sent " + context.sendTrial(Parameters.of(Map.of("x1", 1.0, "x2", 1.0))));
                }
            }
        }
    }

    @Test
    void trialsSentThroughTheContextCountTowardTheBudgetAndAreEvaluated() {
        RoundsOfThree tuner = new RoundsOfThree();
        RunResult r = RunDriver.run(new RunKey("rounds", "branin", Mode.BATCH, 0), tuner, BRANIN, SPACE, 9);
        assertThat(r.evaluated()).isEqualTo(9);
        assertThat(tuner.calls).containsSubsequence("result 0", "result 1", "result 2", "sent 8", "sent 9", "sent 10",
                "refused 11", "result 8", "result 9", "result 10", "sent 14", "result 14");
        assertThat(tuner.calls).filteredOn(c -> c.startsWith("result")).hasSize(9);
        assertThatThrownBy(() -> tuner.context.sendTrial(Parameters.of(Map.of("x1", 1.0, "x2", 1.0))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside the tuner's callbacks");
    }
}
