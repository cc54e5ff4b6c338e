package org.tunekit.runner.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.runner.results.Trials.T0;
import static org.tunekit.runner.results.Trials.experiment;
import static org.tunekit.runner.results.Trials.trial;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextOutputTest {

    @ParameterizedTest
    @CsvSource({
        "0.0, 0", "1.0, 1", "-2.5, -2.5", "0.1, 0.1", "0.123456789, 0.123457", "123456.7, 123457",
        "999999.6, 1e+06", "1234567.0, 1.23457e+06", "0.0001, 0.0001", "0.00001234567, 1.23457e-05",
        "1e-300, 1e-300", "3.0e20, 3e+20", "NaN, NaN", "Infinity, inf", "-Infinity, -inf", "100.0, 100",
    })
    void numbersHaveSixSignificantDigits(double x, String shown) {
        assertThat(Values.number(x)).isEqualTo(shown);
    }

    @Test
    void integralParametersShowExactly() {
        assertThat(Values.value(12345678901L)).isEqualTo("12345678901");
        assertThat(Values.value(32.0)).isEqualTo("32");
    }

    @Test
    void durationsReadAsAPersonSaysThem() {
        assertThat(Values.duration(Duration.ofMillis(12_345))).isEqualTo("12.3s");
        assertThat(Values.duration(Duration.ofSeconds(245))).isEqualTo("4m05s");
        assertThat(Values.duration(Duration.ofMinutes(123))).isEqualTo("2h03m");
        assertThat(Values.duration(Duration.ofHours(76))).isEqualTo("3d04h");
        assertThat(Values.duration(Duration.ofSeconds(-5))).isEqualTo("0.0s");
    }

    @Test
    void nestedChoicesShowCompactly() {
        Map<String, Object> adam = Map.of("_name", "adam", "lr", 0.01, "betas", List.of(0.9, 0.999));
        assertThat(Values.compact(adam)).isEqualTo("adam(betas=[0.9, 0.999], lr=0.01)");
        assertThat(Values.compact(Map.of("_name", "sgd"))).isEqualTo("sgd");
        assertThat(Values.compact(Map.of("b", 2L, "a", "x\ny"))).isEqualTo("{a=x y, b=2}");
    }

    @Test
    void flattensNestedChoicesDepthFirst() {
        Map<String, Object> p = Map.of("opt", Map.of("_name", "adam", "lr", 0.01), "opt-x", 1L, "a", true,
                "sched", Map.of("warm", 3L));
        assertThat(Values.flatten(p)).containsExactly(
                Map.entry(List.of("a"), true),
                Map.entry(List.of("opt"), "adam"),
                Map.entry(List.of("opt", "lr"), 0.01),
                Map.entry(List.of("opt-x"), 1L),
                Map.entry(List.of("sched", "warm"), 3L));
    }

    private static ExperimentResults sample() {
        return experiment(true, List.of(
                trial(0, 0.5, Map.of("lr", 0.1, "optimizer", Map.of("_name", "sgd", "momentum", 0.9))),
                trial(1, 0.91234567, Map.of("lr", 0.001, "optimizer", Map.of("_name", "adam", "lr", 0.01))),
                trial(2, Double.NaN, Map.of("lr", 0.5, "optimizer", "none")),
                trial(3, null, Map.of("lr", 0.5, "optimizer", "none")),
                trial(4, TrialStatus.EARLY_STOPPED, 0.5, Map.of("lr", 12.0, "optimizer", "none"), List.of(), 3725),
                trial(5, 0.75, Map.of("lr", 0.02, "optimizer", "a very long optimizer name that will not fit"))));
    }

    @Test
    void ranksBestFirstEqualValuesBySequenceAndAlignsColumns() {
        String table = ResultsOutput.bestTable(sample(), 10, 200);
        assertThat(table).isEqualTo(String.join("\n",
                "#  trial     value  status         duration     lr  optimizer",
                "-  -----  --------  -------------  --------  -----  --------------------------------------------",
                "1  T0001  0.912346  SUCCEEDED         30.0s  0.001  adam(lr=0.01)",
                "2  T0005      0.75  SUCCEEDED         30.0s   0.02  a very long optimizer name that will not fit",
                "3  T0000       0.5  SUCCEEDED         30.0s    0.1  sgd(momentum=0.9)",
                "4  T0004       0.5  EARLY_STOPPED     1h02m     12  none"));
    }

    @Test
    void minimizingRanksTheSmallestFirstAndTheLimitCuts() {
        ExperimentResults r = experiment(false, sample().trials());
        assertThat(ResultsOutput.bestTable(r, 2, 200).lines().skip(2).map(l -> l.substring(0, 15)))
                .containsExactly("1  T0000    0.5", "2  T0004    0.5");
    }

    @Test
    void wideColumnsAreCutWithAnEllipsisToFitTheWidth() {
        String table = ResultsOutput.bestTable(sample(), 10, 60);
        assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(table.lines().toList().get(3)).endsWith("  30.0s   0.02  a very …");
        assertThat(table.lines().toList().get(2)).endsWith("  30.0s  0.001  adam(lr…");
    }

    @Test
    void columnsThatCannotFitAreLeftOutAndNamed() {
        String table = ResultsOutput.bestTable(sample(), 10, 52);
        assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(52));
        assertThat(table.lines().toList().get(0)).isEqualTo("#  trial     value  status         duration     lr");
        assertThat(table).endsWith("\n(1 more column not shown: optimizer)");
    }

    @Test
    void noRankedTrialSaysSo() {
        ExperimentResults r = experiment(true, List.of(trial(0, Double.NaN, Map.of()), trial(1, null, Map.of())));
        assertThat(ResultsOutput.bestTable(r, 5, 80)).isEqualTo("No trial has a final value.");
        assertThat(ResultsOutput.bestParameters(r)).isEqualTo("No trial has a final value.");
        assertThatThrownBy(() -> ResultsOutput.bestTable(r, 0, 80)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLostTrialIsNotRankedEvenWithTheBestFinalValue() {
        // its parameters ran again as trial 2, which reports its own value
        ExperimentResults r = experiment(true, List.of(
                trial(0, 0.5, Map.of("lr", 0.1)),
                trial(1, TrialStatus.LOST, 0.99, Map.of("lr", 0.2), List.of(), 60),
                trial(2, 0.7, Map.of("lr", 0.2)),
                trial(3, TrialStatus.EARLY_STOPPED, 0.6, Map.of("lr", 0.3), List.of(), 10)));
        assertThat(Values.ranking(r)).extracting(TrialRecord::trialJobId).containsExactly("T0002", "T0003", "T0000");
        assertThat(r.ranked()).extracting(TrialRecord::trialJobId).containsExactly("T0002", "T0003", "T0000");
        assertThat(r.best()).get().extracting(TrialRecord::trialJobId).isEqualTo("T0002");
        assertThat(ResultsOutput.bestTable(r, 10, 200)).doesNotContain("T0001", "LOST").contains("1  T0002");
        assertThat(ResultsOutput.bestParameters(r)).isEqualTo("lr  0.2");
        assertThat(ResultsOutput.summaryLine(r, Clock.fixed(T0, ZoneOffset.UTC))).contains("best 0.7 (trial T0002)");
        // a LOST trial alone: nothing is ranked
        ExperimentResults lostOnly = experiment(true, List.of(trial(0, TrialStatus.LOST, 0.99, Map.of("lr", 0.2), List.of(), 60)));
        assertThat(ResultsOutput.bestTable(lostOnly, 10, 200)).isEqualTo("No trial has a final value.");
        assertThat(lostOnly.best()).isEmpty();
    }

    @Test
    void bestParametersIndentNestedValues() {
        ExperimentResults r = experiment(false, List.of(trial(0, 0.1, Map.of("batch_size", 32L,
                "optimizer", Map.of("_name", "adam", "lr", 0.001, "schedule", Map.of("_name", "cosine", "t", 10L)),
                "layers", List.of(64L, 32L)))));
        assertThat(ResultsOutput.bestParameters(r)).isEqualTo(String.join("\n",
                "batch_size  32",
                "layers      [64, 32]",
                "optimizer   adam",
                "  lr        0.001",
                "  schedule  cosine",
                "    t       10"));
    }

    @Test
    void summaryCountsStatusesAndTakesNowFromTheClockWhileRunning() {
        ExperimentResults done = sample();
        Clock clock = Clock.fixed(T0.plusSeconds(7200), ZoneOffset.UTC);
        assertThat(ResultsOutput.summaryLine(done, clock)).isEqualTo(
                "DONE: 6 trials: 5 succeeded, 1 early stopped; best 0.912346 (trial T0001); elapsed 1h00m");
        ExperimentResults running = new ExperimentResults("e", null, true, T0, null, "RUNNING", List.of());
        assertThat(ResultsOutput.summaryLine(running, clock))
                .isEqualTo("RUNNING: no trials; no final value; elapsed 2h00m");
        ExperimentResults crashed = new ExperimentResults("e", null, true, T0, null, "ERROR", done.trials());
        assertThat(ResultsOutput.summaryLine(crashed, clock)).endsWith("elapsed 1h06m");
    }
}
