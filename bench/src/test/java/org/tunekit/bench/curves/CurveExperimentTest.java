package org.tunekit.bench.curves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;

class CurveExperimentTest {

    /** Kills every trial at its first value. */
    static final class KillAtFirstEpoch implements Assessor {
        @Override
        public AssessResult assessTrial(String trialJobId, List<Metric> history) {
            return history.size() >= 1 ? AssessResult.BAD : AssessResult.GOOD;
        }
    }

    /** Kills one trial at one epoch and records the trial ends it hears. */
    static final class KillOne implements Assessor {
        final String victim;
        final int atEpoch;
        final Map<String, Boolean> ends = new HashMap<>();

        KillOne(String victim, int atEpoch) {
            this.victim = victim;
            this.atEpoch = atEpoch;
        }

        @Override
        public AssessResult assessTrial(String trialJobId, List<Metric> history) {
            return trialJobId.equals(victim) && history.size() == atEpoch ? AssessResult.BAD : AssessResult.GOOD;
        }

        @Override
        public synchronized void trialEnd(String trialJobId, boolean success) {
            ends.put(trialJobId, success);
        }
    }

    /** A stateful assessor: BAD when the latest value is worse than the best seen at that epoch by any trial plus a margin. */
    static final class BestAtEpoch implements Assessor {
        private final Map<Integer, Double> best = new HashMap<>();

        @Override
        public AssessResult assessTrial(String trialJobId, List<Metric> history) {
            int step = history.size();
            double v = history.get(step - 1).value();
            double b = best.merge(step, v, Math::min);
            return step >= 3 && v > b + 0.15 ? AssessResult.BAD : AssessResult.GOOD;
        }
    }

    private static CurveExperiment.Limits trials(int concurrency, int trials) {
        return new CurveExperiment.Limits(concurrency, trials, 0);
    }

    @Test
    void withoutAssessorEveryTrialRunsAllEpochs() throws Exception {
        CurveExperiment.RunTrace trace = CurveExperiment.runTuner(new SampleTuner(1), null, 1, trials(3, 10));
        assertThat(trace.trials()).hasSize(10).allMatch(CurveExperiment.TrialRecord::completedFully);
        assertThat(trace.epochs()).isEqualTo(10L * CurveSuite.EPOCHS);
        assertThat(trace.trials()).extracting(CurveExperiment.TrialRecord::parameterId).doesNotHaveDuplicates();
        assertThat(trace.stalled()).isFalse();
    }

    @Test
    void aKillStopsTheTrialWhichEndsUserCanceled() throws Exception {
        KillOne assessor = new KillOne(CurveExperiment.trialJobId(2), 3);
        CurveExperiment.RunTrace trace = CurveExperiment.runTuner(new SampleTuner(2), assessor, 2, trials(2, 5));
        CurveExperiment.TrialRecord victim = trace.trials().stream().filter(t -> t.index() == 2).findFirst().orElseThrow();
        assertThat(victim.epochs()).isEqualTo(3);
        assertThat(victim.end()).isEqualTo("USER_CANCELED");
        assertThat(victim.killed()).isTrue();
        assertThat(trace.trials()).filteredOn(t -> t.index() != 2).hasSize(4).allMatch(CurveExperiment.TrialRecord::completedFully);
        assertThat(trace.epochs()).isEqualTo(4L * CurveSuite.EPOCHS + 3);
        assertThat(assessor.ends).containsEntry(CurveExperiment.trialJobId(2), false).containsEntry(CurveExperiment.trialJobId(0), true);
    }

    @Test
    void stoppedTrialsReachTheTunerOnlyWhenIntermediateResultsAreIncluded() throws Exception {
        SampleTuner without = new SampleTuner(2);
        CurveExperiment.runTuner(without, new KillOne(CurveExperiment.trialJobId(2), 3), 2, trials(2, 5), CurveExperiment.Simulation.DEFAULT);
        assertThat(without.results).hasSize(4).noneMatch(r -> r.trialJobId().equals(CurveExperiment.trialJobId(2)));

        SampleTuner with = new SampleTuner(2);
        CurveExperiment.RunTrace trace = CurveExperiment.runTuner(with, new KillOne(CurveExperiment.trialJobId(2), 3), 2, trials(2, 5), new CurveExperiment.Simulation(SuitePace.LATE_SETTLING, true, false));
        assertThat(with.results).hasSize(5);
        CurveExperiment.TrialRecord victim = trace.trials().stream().filter(t -> t.index() == 2).findFirst().orElseThrow();
        assertThat(with.results).filteredOn(r -> r.trialJobId().equals(CurveExperiment.trialJobId(2))).singleElement()
                .satisfies(r -> assertThat(r.metric().value()).isEqualTo(victim.lastValue()));
    }

    @Test
    void anAssessorKillingEverythingAfterEpochOneSpendsOneEpochPerTrial() throws Exception {
        CurveExperiment.RunTrace trace = CurveExperiment.runTuner(new SampleTuner(3), new KillAtFirstEpoch(), 3, trials(4, 30));
        assertThat(trace.trials()).hasSize(30).allMatch(t -> t.killed() && t.epochs() == 1);
        assertThat(trace.epochs()).isEqualTo(30);
    }

    @Test
    void theSameSeedGivesTheSameRun() throws Exception {
        CurveExperiment.RunTrace a = CurveExperiment.runTuner(new SampleTuner(5), new BestAtEpoch(), 5, trials(4, 25));
        CurveExperiment.RunTrace b = CurveExperiment.runTuner(new SampleTuner(5), new BestAtEpoch(), 5, trials(4, 25));
        assertThat(a.trials()).anyMatch(CurveExperiment.TrialRecord::killed).anyMatch(CurveExperiment.TrialRecord::completedFully);
        assertThat(b).isEqualTo(a);
        CurveExperiment.RunTrace c = CurveExperiment.runTuner(new SampleTuner(6), new BestAtEpoch(), 6, trials(4, 25));
        assertThat(c).isNotEqualTo(a);
    }

    /** An advisor for the tests: each requested trial runs {@code budget} epochs; it kills trial 1 at its second value. */
    static final class BudgetAdvisor implements org.tunekit.sdk.Advisor {
        final int budget;
        final List<String> calls = new ArrayList<>();
        final Map<String, Double> finals = new HashMap<>();
        private AdvisorContext context;
        private SearchSpace space;
        private final java.util.SplittableRandom random = new java.util.SplittableRandom(9);

        BudgetAdvisor(int budget) {
            this.budget = budget;
        }

        @Override
        public void open(AdvisorContext context) {
            this.context = context;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            this.space = space;
        }

        @Override
        public void requestTrialJobs(int count) {
            for (int i = 0; i < count; i++) {
                Map<String, Object> values = new LinkedHashMap<>(space.sample(random).values());
                values.put(CurveSuite.TRIAL_BUDGET, budget);
                context.sendTrial(context.newParameterId(), Parameters.of(values));
            }
        }

        @Override
        public void reportMetric(MetricReport report) {
            calls.add(report.type() + " " + report.trialJobId());
            if (report.type() == MetricReport.Type.FINAL) {
                finals.put(report.trialJobId(), report.metric().value());
            }
            if (report.trialJobId().equals(CurveExperiment.trialJobId(1)) && report.sequence() == 1) {
                context.killTrial(report.trialJobId());
            }
        }

        @Override
        public void trialEnd(TrialEnd end) {
            calls.add("EN " + end.trialJobId() + " " + end.event());
        }
    }

    @Test
    void advisorTrialsRunTheirBudgetUntilTheEpochBudgetIsSpent() throws Exception {
        BudgetAdvisor advisor = new BudgetAdvisor(4);
        CurveExperiment.RunTrace trace = CurveExperiment.runAdvisor(advisor, 1, new CurveExperiment.Limits(2, 0, 30));
        assertThat(trace.epochs()).isEqualTo(30);
        CurveExperiment.TrialRecord killed = trace.trials().stream().filter(t -> t.index() == 1).findFirst().orElseThrow();
        assertThat(killed.epochs()).isEqualTo(2);
        assertThat(killed.killed()).isTrue();
        assertThat(trace.trials()).filteredOn(t -> "SUCCEEDED".equals(t.end())).allMatch(t -> t.epochs() == 4 && t.budget() == 4)
                .noneMatch(CurveExperiment.TrialRecord::completedFully);
        assertThat(advisor.calls).contains("EN " + CurveExperiment.trialJobId(1) + " USER_CANCELED", "FINAL " + CurveExperiment.trialJobId(0));
        assertThat(trace.trials().stream().mapToInt(CurveExperiment.TrialRecord::epochs).sum()).isEqualTo(30);
    }

    @Test
    void withPerfectRungsAPartialTrialReportsItsTrueFinalValue() throws Exception {
        for (SuitePace pace : SuitePace.values()) {
            BudgetAdvisor observed = new BudgetAdvisor(4);
            CurveExperiment.RunTrace plain = CurveExperiment.runAdvisor(observed, 3, new CurveExperiment.Limits(2, 0, 40),
                    new CurveExperiment.Simulation(pace, false, false));
            BudgetAdvisor perfect = new BudgetAdvisor(4);
            CurveExperiment.RunTrace known = CurveExperiment.runAdvisor(perfect, 3, new CurveExperiment.Limits(2, 0, 40),
                    new CurveExperiment.Simulation(pace, false, true));
            assertThat(known.trials()).as("the same trials run").isEqualTo(plain.trials());
            List<CurveExperiment.TrialRecord> succeeded = plain.trials().stream().filter(t -> "SUCCEEDED".equals(t.end())).toList();
            assertThat(succeeded).isNotEmpty();
            for (CurveExperiment.TrialRecord t : succeeded) {
                CurveSuite.Curve curve = CurveSuite.curveOf(t.parameters(), pace);
                assertThat(observed.finals.get(t.trialJobId())).as("observed at its budget").isEqualTo(curve.observed(3, t.index(), 4))
                        .isEqualTo(t.lastValue());
                assertThat(perfect.finals.get(t.trialJobId())).as("true final value").isEqualTo(curve.mean(CurveSuite.EPOCHS));
            }
        }
    }

    @Test
    void aFailingAssessorFailsTheRunWithTheDispatchersError() {
        Assessor broken = (id, history) -> {
            throw new IllegalStateException("broken on purpose");
        };
        assertThatThrownBy(() -> CurveExperiment.runTuner(new SampleTuner(1), broken, 1, trials(2, 3)))
                .isInstanceOf(IllegalStateException.class);
    }
}
