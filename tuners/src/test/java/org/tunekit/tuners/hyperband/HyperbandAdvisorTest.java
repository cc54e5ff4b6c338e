package org.tunekit.tuners.hyperband;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.testkit.AdvisorRun;
import org.tunekit.sdk.testkit.AdvisorTestKit;
import org.tunekit.sdk.testkit.ContractSpaces;
import org.tunekit.tuners.hyperband.FakeAdvisorContext.Sent;

class HyperbandAdvisorTest {
    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).choice("c", "a", "b", "c").build();

    private static HyperbandAdvisor advisor(Map<String, ?> args, FakeAdvisorContext ctx) {
        HyperbandAdvisor a = HyperbandAdvisor.create(ClassArguments.of(args));
        a.open(ctx);
        a.updateSearchSpace(SPACE);
        return a;
    }

    private static double x(Sent s) {
        return s.parameters().getDouble("x");
    }

    @Test
    void scheduleOfThePaperForR81Eta3() {
        HyperbandAdvisor a = HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 81, "eta", 3)));
        assertThat(a.maxBracket()).isEqualTo(4);
        long[][] rungs = {{5}, {8, 2}, {15, 5, 1}, {34, 11, 3, 1}, {81, 27, 9, 3, 1}};
        for (int s = 0; s <= 4; s++) {
            for (int i = 0; i <= s; i++) {
                assertThat(a.rungSize(s, i)).as("bracket %d rung %d", s, i).isEqualTo(rungs[s][i]);
            }
        }
        assertThat(List.of(a.budget(0), a.budget(1), a.budget(2), a.budget(3), a.budget(4))).containsExactly(1.0, 3.0, 9.0, 27.0, 81.0);
        assertThat(HyperbandAdvisor.create(ClassArguments.of(Map.of())).maxBracket()).as("R=60 default: 3^3 <= 60 < 3^4").isEqualTo(3);
    }

    @Test
    void minBudgetDropsTheBracketsThatWouldStartBelowIt() {
        HyperbandAdvisor a = HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 50, "eta", 3, "min_budget", 10)));
        assertThat(a.maxBracket()).as("50 / 10 = 5: one halving fits").isEqualTo(1);
        assertThat(List.of(a.budget(0), a.budget(1))).containsExactly(50.0 / 3, 50.0);
        assertThat(HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 81, "min_budget", 1))).maxBracket())
                .as("min_budget 1 is NNI's schedule").isEqualTo(4);
        assertThat(HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 50, "min_budget", 50))).maxBracket()).isZero();
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 50, "min_budget", 60))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'min_budget'").hasMessageContaining("60");
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("min_budget", 0))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'min_budget'");
    }

    @Test
    void aSerialRoundRunsEveryRungWithItsBudget() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 81, "eta", 3, "exec_mode", "serial", "seed", 3), ctx);
        ctx.run(a, 4, 206, FakeAdvisorContextTestSupport::objective);
        List<Sent> round = ctx.sent().subList(0, 206);
        Map<Double, Long> perBudget = new TreeMap<>();
        round.forEach(s -> perBudget.merge(s.budget(), 1L, Long::sum));
        assertThat(perBudget).containsExactly(Map.entry(1.0, 81L), Map.entry(3.0, 61L), Map.entry(9.0, 35L),
                Map.entry(27.0, 19L), Map.entry(81.0, 10L));
        // serial: the brackets follow one another, s = 4, 3, 2, 1, 0
        List<Double> firstOfBrackets = List.of(round.get(0).budget(), round.get(121).budget(), round.get(170).budget(),
                round.get(191).budget(), round.get(201).budget());
        assertThat(firstOfBrackets).containsExactly(1.0, 3.0, 9.0, 27.0, 81.0);
        assertThat(round.get(0).parameters().get(BracketAdvisor.BUDGET_KEY)).isInstanceOf(Long.class).isEqualTo(1L);
        assertThat(ctx.noMoreTrials()).isZero();
        assertThat(ctx.sent().stream().map(Sent::parameterId).distinct().count()).isEqualTo(ctx.sent().size());
    }

    @Test
    void theBestOfARungArePromotedAsNewTrialsWithTheSameParameters() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 5), ctx);
        a.requestTrialJobs(9);
        assertThat(ctx.sent()).hasSize(9).allSatisfy(s -> assertThat(s.budget()).isEqualTo(1.0));
        List<Sent> first = List.copyOf(ctx.sent());
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        assertThat(ctx.sent()).as("no request is open").hasSize(9);

        a.requestTrialJobs(3);
        List<Sent> second = ctx.sent().subList(9, 12);
        List<Map<String, Object>> top3 = first.stream().sorted(Comparator.comparingDouble(HyperbandAdvisorTest::x).reversed())
                .limit(3).map(Sent::config).toList();
        assertThat(second.stream().map(Sent::config).toList()).isEqualTo(top3);
        assertThat(second).allSatisfy(s -> assertThat(s.budget()).isEqualTo(3.0));
        assertThat(second.stream().map(Sent::parameterId).toList()).containsExactly(9L, 10L, 11L);

        ctx.finishAll(a, s -> -x(s));  // at budget 3 the order turns: the smallest x is best
        a.requestTrialJobs(1);
        Sent last = ctx.sent().get(12);
        assertThat(last.budget()).isEqualTo(9.0);
        assertThat(last.config()).isEqualTo(top3.get(2));
    }

    @Test
    void minimizeRanksSmallMetricsFirst() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 5, "optimize_mode", "minimize"), ctx);
        a.requestTrialJobs(9);
        List<Sent> first = List.copyOf(ctx.sent());
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.requestTrialJobs(3);
        assertThat(ctx.sent().subList(9, 12).stream().map(Sent::config).toList()).isEqualTo(
                first.stream().sorted(Comparator.comparingDouble(HyperbandAdvisorTest::x)).limit(3).map(Sent::config).toList());
    }

    @Test
    void failedTrialsRankWorst() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 5), ctx);
        a.requestTrialJobs(9);
        List<Sent> first = List.copyOf(ctx.sent());
        List<Sent> byX = first.stream().sorted(Comparator.comparingDouble(HyperbandAdvisorTest::x).reversed()).toList();
        ctx.fail(a, byX.get(0), "FAILED");
        ctx.fail(a, byX.get(1), "EARLY_STOPPED");
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.requestTrialJobs(3);
        assertThat(ctx.sent().subList(9, 12).stream().map(Sent::config).toList())
                .isEqualTo(byX.subList(2, 5).stream().map(Sent::config).toList());
    }

    @Test
    void withIntermediateResultsIncludedAStoppedTrialRanksByItsLastValue() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        ctx.setIncludeIntermediate(true);
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 5), ctx);
        a.requestTrialJobs(9);
        Sent stopped = ctx.sent().get(4);
        a.reportMetric(new MetricReport(stopped.parameterId(), FakeAdvisorContext.jobOf(stopped.parameterId()),
                MetricReport.Type.PERIODICAL, 0, Metric.of(100), 0));
        ctx.fail(a, stopped, "EARLY_STOPPED");
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.requestTrialJobs(1);
        assertThat(ctx.sent().get(9).config()).isEqualTo(stopped.config());
    }

    @Test
    void anEndThatNamesAnotherTrialsParametersDoesNotEndThatTrial() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 5), ctx);
        a.requestTrialJobs(9);
        Sent reporting = ctx.sent().get(0);
        a.reportMetric(new MetricReport(reporting.parameterId(), "jobA", MetricReport.Type.PERIODICAL, 0, Metric.of(0.5), 0));
        // another job fails without a metric, and the manager's record names trial 0's parameters
        a.trialEnd(new org.tunekit.sdk.TrialEnd("jobB", "FAILED", reporting.parameterId()));
        a.reportMetric(new MetricReport(reporting.parameterId(), "jobA", MetricReport.Type.FINAL, 0, Metric.of(2), 0));
        a.trialEnd(new org.tunekit.sdk.TrialEnd("jobA", "SUCCEEDED", reporting.parameterId()));
        ctx.running().remove(reporting);
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.requestTrialJobs(1);
        assertThat(ctx.sent().get(9).config()).as("trial 0's final result 2 counts: it is the best").isEqualTo(reporting.config());
    }

    @Test
    void serialHoldsRequestsUntilTheRungCompletesWhileParallelismStartsTheNextBracket() {
        FakeAdvisorContext serialCtx = new FakeAdvisorContext();
        HyperbandAdvisor serial = advisor(Map.of("R", 9, "eta", 3, "seed", 1, "exec_mode", "serial"), serialCtx);
        serial.requestTrialJobs(11);
        assertThat(serialCtx.sent()).hasSize(9);
        serialCtx.finishAll(serial, HyperbandAdvisorTest::x);
        assertThat(serialCtx.sent()).as("the two held requests get promoted trials").hasSize(11);
        assertThat(serialCtx.sent().subList(9, 11)).allSatisfy(s -> assertThat(s.budget()).isEqualTo(3.0));
        assertThat(serialCtx.noMoreTrials()).isZero();

        FakeAdvisorContext parallelCtx = new FakeAdvisorContext();
        HyperbandAdvisor parallel = advisor(Map.of("R", 9, "eta", 3, "seed", 1), parallelCtx);
        parallel.requestTrialJobs(11);
        assertThat(parallelCtx.sent()).hasSize(11);
        assertThat(parallelCtx.sent().subList(9, 11)).as("bracket s=1 starts at budget 3")
                .allSatisfy(s -> assertThat(s.budget()).isEqualTo(3.0));
        assertThat(parallelCtx.sent().subList(0, 9).stream().map(Sent::config).toList())
                .as("same seed, same configurations").isEqualTo(serialCtx.sent().subList(0, 9).stream().map(Sent::config).toList());
    }

    @Test
    void parallelismNeverKeepsARequestWaiting() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 27, "eta", 3, "seed", 2), ctx);
        for (int i = 0; i < 200; i++) {
            int before = ctx.sent().size();
            a.requestTrialJobs(1);
            assertThat(ctx.sent()).hasSize(before + 1);
            if (i % 3 == 0) {
                ctx.finishAll(a, HyperbandAdvisorTest::x);
            }
        }
    }

    @Test
    void theScheduleRepeatsWithNewConfigurations() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 4, "exec_mode", "serial"), ctx);
        // one round for R=9: 9+3+1, 5+1, 3 trials
        ctx.run(a, 2, 23, HyperbandAdvisorTest::x);
        assertThat(ctx.sent().get(22).budget()).as("a new round starts with bracket s=2").isEqualTo(1.0);
        assertThat(ctx.sent().get(22).config()).isNotIn(ctx.sent().subList(0, 22).stream().map(Sent::config).toList());
    }

    @Test
    void theSameSeedGivesTheSameTrials() {
        assertThat(run(7)).isEqualTo(run(7)).isNotEqualTo(run(8));
    }

    private static List<Sent> run(long seed) {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 27, "eta", 3, "seed", seed), ctx);
        ctx.run(a, 5, 120, HyperbandAdvisorTest::x);
        return ctx.sent();
    }

    @Test
    void aResumedAdvisorContinuesTheSchedule(@TempDir Path dir) throws Exception {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 27, "eta", 3, "seed", 9), ctx);
        ctx.run(a, 4, 40, HyperbandAdvisorTest::x);
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.saveCheckpoint(dir);
        a.requestTrialJobs(6);
        List<Sent> uninterrupted = List.copyOf(ctx.sent().subList(ctx.sent().size() - 6, ctx.sent().size()));

        FakeAdvisorContext ctx2 = new FakeAdvisorContext();
        HyperbandAdvisor b = HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "eta", 3, "seed", 9)));
        b.loadCheckpoint(dir);
        b.open(ctx2);
        b.updateSearchSpace(SPACE);
        b.requestTrialJobs(6);
        assertThat(ctx2.sent().stream().map(Sent::parameters).toList())
                .isEqualTo(uninterrupted.stream().map(Sent::parameters).toList());
    }

    @Test
    void trialsRunningAtTheCheckpointAreHandedOutAgain(@TempDir Path dir) throws Exception {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 9, "eta", 3, "seed", 9, "exec_mode", "serial"), ctx);
        a.requestTrialJobs(9);
        for (Sent s : List.copyOf(ctx.sent()).subList(0, 5)) {
            ctx.finish(a, s, x(s));
        }
        a.saveCheckpoint(dir);

        FakeAdvisorContext ctx2 = new FakeAdvisorContext();
        HyperbandAdvisor b = HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 9, "eta", 3, "seed", 9, "exec_mode", "serial")));
        b.loadCheckpoint(dir);
        b.open(ctx2);
        b.updateSearchSpace(SPACE);
        b.requestTrialJobs(9);
        assertThat(ctx2.sent().stream().map(Sent::parameters).toList()).as("only the 4 unfinished trials")
                .isEqualTo(ctx.sent().subList(5, 9).stream().map(Sent::parameters).toList());
        ctx2.finishAll(b, HyperbandAdvisorTest::x);
        List<Map<String, Object>> expectedTop = ctx.sent().stream().sorted(Comparator.comparingDouble(HyperbandAdvisorTest::x).reversed())
                .limit(3).map(Sent::config).toList();
        assertThat(ctx2.sent().subList(4, 7).stream().map(Sent::config).toList()).isEqualTo(expectedTop);
    }

    @Test
    void everyTypeAndNestedChoicesReachTheTrialWithTheBudget() {
        for (SearchSpace space : List.of(ContractSpaces.allTypes(), ContractSpaces.nested())) {
            FakeAdvisorContext ctx = new FakeAdvisorContext();
            HyperbandAdvisor a = HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 9, "seed", 1)));
            a.open(ctx);
            a.updateSearchSpace(space);
            ctx.run(a, 3, 30, s -> 0);
            assertThat(ctx.sent()).allSatisfy(s -> {
                assertThat(s.parameters().get(BracketAdvisor.BUDGET_KEY)).isIn(1L, 3L, 9L);
                assertThat(space.violation(org.tunekit.sdk.Parameters.of(s.config()))).isEmpty();
            });
        }
    }

    @Test
    void budgetsThatAreNotWholeNumbersStayExact() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        advisor(Map.of("R", 10, "eta", 3, "seed", 1), ctx).requestTrialJobs(1);
        assertThat(ctx.sent().get(0).parameters().get(BracketAdvisor.BUDGET_KEY)).isEqualTo(10.0 / 9);
    }

    /**
     * A learning curve (maximised) for a configuration: before step {@code settle} its values rank the
     * configurations in reverse, from then on as their final values, {@code x}, do.
     */
    static double[] curve(Sent trial, int steps, int settle) {
        double x = trial.parameters().getDouble("x");
        double[] c = new double[steps];
        for (int t = 1; t <= steps; t++) {
            c[t - 1] = t < settle ? 0.5 - 0.5 * x : x;
        }
        return c;
    }

    /** Runs start-up trials of {@code a} with {@link #curve} until the schedule is found; returns the start-up trials sent. */
    private static List<Sent> settle(BracketAdvisor a, FakeAdvisorContext ctx, int steps, int settle) {
        a.requestTrialJobs(2);
        int guard = 0;
        while (a.settling()) {
            assertThat(guard++).as("trials before the schedule is found").isLessThan(100);
            Sent t = ctx.running().get(0);
            assertThat(t.budget()).as("start-up trials run the full budget").isEqualTo(steps);
            ctx.finishWithCurve(a, t, curve(t, steps, settle));
            a.requestTrialJobs(1);
        }
        return List.copyOf(ctx.sent());
    }

    @Test
    void minBudgetAutoStartsTheScheduleWhereTheFirstCurvesSettle() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 27, "eta", 3, "seed", 4, "min_budget", "auto", "n_startup_trials", 5), ctx);
        assertThat(a.settling()).isTrue();
        assertThat(a.maxBracket()).isZero();
        List<Sent> startup = settle(a, ctx, 27, 9);
        assertThat(startup).as("5 finished, and the slot freed by the fifth refilled").hasSize(7);
        assertThat(a.maxBracket()).as("ranked from step 9: 27 / 9 = 3, one halving").isEqualTo(1);
        assertThat(List.of(a.budget(0), a.budget(1))).containsExactly(9.0, 27.0);
        ctx.finishAll(a, HyperbandAdvisorTest::x);
        a.requestTrialJobs(1);
        Sent next = ctx.sent().get(ctx.sent().size() - 1);
        assertThat(next.budget()).as("the schedule starts at bracket s_max").isEqualTo(9.0);

        FakeAdvisorContext early = new FakeAdvisorContext();
        HyperbandAdvisor b = advisor(Map.of("R", 27, "eta", 3, "seed", 4, "min_budget", "auto", "n_startup_trials", 5), early);
        settle(b, early, 27, 1);
        assertThat(b.maxBracket()).as("ranked from the first step: NNI's schedule").isEqualTo(3);

        FakeAdvisorContext late = new FakeAdvisorContext();
        HyperbandAdvisor c = advisor(Map.of("R", 27, "eta", 3, "seed", 4, "min_budget", "auto", "n_startup_trials", 5), late);
        settle(c, late, 27, 20);
        assertThat(c.maxBracket()).as("ranked only past R / eta: no halving").isZero();
        c.requestTrialJobs(1);
        assertThat(late.sent().get(late.sent().size() - 1).budget()).isEqualTo(27.0);
    }

    @Test
    void failedStartUpTrialsDoNotCountAndMoreAreDrawn() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(Map.of("R", 27, "eta", 3, "seed", 4, "min_budget", "auto", "n_startup_trials", 3), ctx);
        a.requestTrialJobs(3);
        for (Sent t : List.copyOf(ctx.running())) {
            ctx.fail(a, t, "FAILED");
            a.requestTrialJobs(1);
        }
        assertThat(a.settling()).isTrue();
        assertThat(ctx.running()).hasSize(3).allMatch(t -> t.budget() == 27.0);
        settle(a, ctx, 27, 9);
        assertThat(a.maxBracket()).isEqualTo(1);
    }

    @Test
    void aCheckpointTakenWhileSettlingResumesWithTheCurvesSoFar(@TempDir Path dir) throws Exception {
        Map<String, Object> args = Map.of("R", 27, "eta", 3, "seed", 6, "min_budget", "auto", "n_startup_trials", 4);
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        HyperbandAdvisor a = advisor(args, ctx);
        a.requestTrialJobs(3);
        for (Sent t : List.copyOf(ctx.running()).subList(0, 2)) {
            ctx.finishWithCurve(a, t, curve(t, 27, 9));
        }
        a.saveCheckpoint(dir);

        FakeAdvisorContext ctx2 = new FakeAdvisorContext();
        HyperbandAdvisor b = HyperbandAdvisor.create(ClassArguments.of(args));
        b.loadCheckpoint(dir);
        b.open(ctx2);
        b.updateSearchSpace(SPACE);
        assertThat(b.settling()).isTrue();
        b.requestTrialJobs(2);
        assertThat(ctx2.sent()).as("the running trial again, then a new one").hasSize(2).allMatch(t -> t.budget() == 27.0);
        assertThat(ctx2.sent().get(0).config()).isEqualTo(ctx.sent().get(2).config());
        for (Sent t : List.copyOf(ctx2.running())) {
            ctx2.finishWithCurve(b, t, curve(t, 27, 9));
        }
        assertThat(b.settling()).as("2 curves before the checkpoint + 2 after").isFalse();
        assertThat(b.maxBracket()).isEqualTo(1);

        b.saveCheckpoint(dir);
        HyperbandAdvisor c = HyperbandAdvisor.create(ClassArguments.of(args));
        c.loadCheckpoint(dir);
        assertThat(c.settling()).isFalse();
        assertThat(c.maxBracket()).as("the found schedule is kept").isEqualTo(1);
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "eta", 3, "seed", 6))).loadCheckpoint(dir))
                .hasMessageContaining("s_max 1");
    }

    @Test
    void throughTheSdkTestKitEveryTrialRunsItsBudgetAndRungsPromoteTheBest() {
        AdvisorRun run = AdvisorTestKit.forProvider(new HyperbandProvider()).withArguments(Map.of("R", 9, "eta", 3, "seed", 2))
                .withSpace(SPACE).withSlots(3).run(60, p -> {
                    double[] curve = new double[(int) p.getLong(BracketAdvisor.BUDGET_KEY)];
                    java.util.Arrays.fill(curve, p.getDouble("x"));
                    return curve;
                });
        assertThat(run.trials()).hasSize(60).allSatisfy(t -> assertThat(t.extraKeys()).containsExactly(BracketAdvisor.BUDGET_KEY));
        assertThat(run.withValue(BracketAdvisor.BUDGET_KEY, 1L)).as("round 1 starts 9 at budget 1").hasSizeGreaterThanOrEqualTo(9);
        List<Map<String, Object>> promoted = run.withValue(BracketAdvisor.BUDGET_KEY, 9L).stream().map(t -> configOf(t.parameters())).toList();
        List<Map<String, Object>> startedAt1 = run.withValue(BracketAdvisor.BUDGET_KEY, 1L).stream().map(t -> configOf(t.parameters())).toList();
        assertThat(promoted).as("a configuration that started at budget 1 came through two rungs").anyMatch(startedAt1::contains);
        assertThat(run.trials()).noneMatch(AdvisorRun.Trial::killed);
    }

    private static Map<String, Object> configOf(org.tunekit.sdk.Parameters p) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(p.values());
        m.remove(BracketAdvisor.BUDGET_KEY);
        return m;
    }

    @Test
    void minBudgetAutoArgumentsAreChecked() {
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "n_startup_trials", 5))))
                .isInstanceOf(InvalidClassArgumentException.class)
                .hasMessage("class argument 'n_startup_trials' applies only with min_budget \"auto\", got min_budget null");
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "min_budget", "auto", "n_startup_trials", 2))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'n_startup_trials'");
        assertThatThrownBy(() -> HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "min_budget", "soon"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'min_budget'");
        assertThat(HyperbandAdvisor.create(ClassArguments.of(Map.of("R", 27, "min_budget", "auto"))).settling()).isTrue();
    }

    @Test
    void registeredUnderNnisNameWithCheckedArguments() {
        List<AdvisorProvider> providers = new ArrayList<>();
        ServiceLoader.load(AdvisorProvider.class).forEach(providers::add);
        AdvisorProvider hyperband = providers.stream().filter(p -> p.name().equals("Hyperband")).findFirst().orElseThrow();
        Advisor created = hyperband.create(ClassArguments.empty());
        assertThat(created).isInstanceOf(HyperbandAdvisor.class);
        assertThatThrownBy(() -> hyperband.create(ClassArguments.of(Map.of("R", 0)))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'R'");
        assertThatThrownBy(() -> hyperband.create(ClassArguments.of(Map.of("eta", 1)))).hasMessageContaining("'eta'");
        assertThatThrownBy(() -> hyperband.create(ClassArguments.of(Map.of("exec_mode", "fast")))).hasMessageContaining("'exec_mode'");
        assertThatThrownBy(() -> hyperband.create(ClassArguments.of(Map.of("r", 3)))).isInstanceOf(InvalidClassArgumentException.class);
    }
}
