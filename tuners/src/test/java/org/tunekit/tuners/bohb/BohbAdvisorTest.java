package org.tunekit.tuners.bohb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.testkit.AdvisorRun;
import org.tunekit.sdk.testkit.AdvisorTestKit;
import org.tunekit.sdk.testkit.ContractSpaces;
import org.tunekit.tuners.hyperband.BracketAdvisor;
import org.tunekit.tuners.hyperband.FakeAdvisorContext;
import org.tunekit.tuners.hyperband.FakeAdvisorContext.Sent;

class BohbAdvisorTest {
    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).uniform("y", 0, 1).build();

    private static BohbAdvisor advisor(Map<String, ?> args, SearchSpace space, FakeAdvisorContext ctx) {
        BohbAdvisor a = BohbAdvisor.create(ClassArguments.of(args));
        a.open(ctx);
        a.updateSearchSpace(space);
        return a;
    }

    /** Maximised at (0.2, 0.7). */
    private static double objective(Sent s) {
        double x = s.parameters().getDouble("x") - 0.2;
        double y = s.parameters().getDouble("y") - 0.7;
        return -(x * x + y * y);
    }

    private static double distance(Sent s) {
        return Math.sqrt(-objective(s));
    }

    @Test
    void theKernelDensityOfGoodPointsIsHigherInTheGoodRegion() {
        EncodedSpace encoded = EncodedSpace.of(SearchSpace.builder().uniform("x", 0, 1).choice("c", "a", "b", "c").build());
        SplittableRandom rng = new SplittableRandom(1);
        List<double[]> good = new ArrayList<>();
        List<double[]> bad = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            good.add(new double[] {0.1 + 0.05 * rng.nextDouble(), 0.5 / 3});
            bad.add(new double[] {0.5 + 0.5 * rng.nextDouble(), (rng.nextInt(3) + 0.5) / 3});
        }
        KernelDensity l = KernelDensity.fit(encoded, good, 1e-3);
        KernelDensity g = KernelDensity.fit(encoded, bad, 1e-3);
        double[] inside = {0.12, 0.5 / 3};
        double[] outside = {0.8, 2.5 / 3};
        assertThat(l.logDensity(inside) - g.logDensity(inside)).isGreaterThan(l.logDensity(outside) - g.logDensity(outside));
        assertThat(l.bandwidth(1)).as("all good points share option a: the smallest lambda").isEqualTo(1e-3);
        for (int i = 0; i < 200; i++) {
            double[] u = l.sample(rng, 3);
            assertThat(u[0]).isBetween(0.0, 1.0);
            assertThat(u[1]).isIn(0.5 / 3, 1.5 / 3, 2.5 / 3);
        }
    }

    @Test
    void theModelSteersConfigurationsToTheGoodRegion() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "seed", 3, "random_fraction", 0.0), SPACE, ctx);
        ctx.run(a, 4, 400, BohbAdvisorTest::objective);
        assertThat(a.model()).isNotNull();
        // new configurations are the first-rung trials; the first 13 come from the prior
        List<Double> fresh = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        for (Sent s : ctx.sent()) {
            if (seen.add(s.config().toString())) {
                fresh.add(distance(s));
            }
        }
        double early = fresh.subList(0, 13).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double late = fresh.subList(fresh.size() - 60, fresh.size()).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        assertThat(late).as("mean distance to the optimum of the last model-drawn configurations vs the prior's")
                .isLessThan(early / 2);

    }

    @Test
    void budgetsRunFromMinToMaxBudget() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 1), SPACE, ctx);
        a.requestTrialJobs(9);
        assertThat(ctx.sent()).allSatisfy(s -> assertThat(s.parameters().get(BracketAdvisor.BUDGET_KEY)).isEqualTo(1L));
        ctx.finishAll(a, BohbAdvisorTest::objective);
        a.requestTrialJobs(3);
        assertThat(ctx.sent().subList(9, 12)).allSatisfy(s -> assertThat(s.budget()).isEqualTo(3.0));
        assertThat(BohbAdvisor.create(ClassArguments.empty()).maxBracket()).as("defaults 1..3, eta 3").isEqualTo(1);
    }

    @Test
    void everyTypeAndNestedChoicesGiveValidConfigurationsFromTheModel() {
        for (SearchSpace space : List.of(ContractSpaces.allTypes(), ContractSpaces.nested())) {
            FakeAdvisorContext ctx = new FakeAdvisorContext();
            BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "seed", 2, "min_points_in_model", 3), space, ctx);
            ctx.run(a, 3, 150, s -> s.parameters().toString().hashCode() % 1000);
            assertThat(a.model()).as("the model is in use").isNotNull();
            assertThat(ctx.sent()).allSatisfy(s -> assertThat(space.violation(Parameters.of(s.config()))).isEmpty());
        }
    }

    @Test
    void importedResultsAreMaxBudgetObservations() {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "seed", 2), SPACE, ctx);
        assertThat(a.model()).isNull();
        SplittableRandom rng = new SplittableRandom(5);
        List<ImportedTrial> imported = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            imported.add(new ImportedTrial(Parameters.of(Map.of("x", rng.nextDouble(), "y", rng.nextDouble(), "TRIAL_BUDGET", 9L)), Metric.of(i)));
        }
        a.importData(imported);
        assertThat(a.model()).as("d + 1 + 2 = 5 points make a model").isNotNull()
                .extracting(BohbAdvisor.Model::budgetIndex).isEqualTo(a.maxBracket());
    }

    @Test
    void withMinBudgetAutoTheStartUpResultsAndImportsFormTheModelAtMaxBudget(@TempDir Path dir) throws Exception {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        Map<String, Object> args = Map.of("min_budget", "auto", "n_startup_trials", 6, "max_budget", 27, "seed", 2);
        BohbAdvisor a = advisor(args, SPACE, ctx);
        a.importData(List.of(new ImportedTrial(Parameters.of(Map.of("x", 0.2, "y", 0.7)), Metric.of(0))));
        a.requestTrialJobs(2);
        while (a.settling()) {
            Sent t = ctx.running().get(0);
            assertThat(t.budget()).isEqualTo(27.0);
            double[] curve = new double[27];
            for (int i = 0; i < curve.length; i++) {
                // ranked as at the end from step 3 on
                curve[i] = i < 2 ? distance(t) : objective(t);
            }
            ctx.finishWithCurve(a, t, curve);
            a.requestTrialJobs(1);
        }
        assertThat(a.maxBracket()).as("27 / 3 = 9: two halvings").isEqualTo(2);
        assertThat(a.model()).as("6 start-up results + 1 import >= d + 1 + 2").isNotNull()
                .extracting(BohbAdvisor.Model::budgetIndex).isEqualTo(2);
        a.saveCheckpoint(dir);
        BohbAdvisor b = BohbAdvisor.create(ClassArguments.of(args));
        b.loadCheckpoint(dir);
        b.open(new FakeAdvisorContext());
        b.updateSearchSpace(SPACE);
        assertThat(b.maxBracket()).isEqualTo(2);
        assertThat(b.model()).isNotNull().extracting(BohbAdvisor.Model::budgetIndex).isEqualTo(2);
    }

    @Test
    void throughTheSdkTestKitMinBudgetAutoStartsItsBracketsWhereTheCurvesSettle() {
        AdvisorRun run = AdvisorTestKit.forProvider(new BohbProvider())
                .withArguments(Map.of("min_budget", "auto", "max_budget", 27, "eta", 3, "seed", 5)).withSpace(SPACE)
                .run(60, p -> {
                    // ranked in reverse for two epochs, as at the end from the third on
                    double[] curve = new double[(int) p.getLong(BracketAdvisor.BUDGET_KEY)];
                    double x = p.getDouble("x");
                    for (int i = 0; i < curve.length; i++) {
                        curve[i] = i < 2 ? x : -x;
                    }
                    return curve;
                });
        List<Object> budgets = run.trials().stream().map(t -> t.parameters().get(BracketAdvisor.BUDGET_KEY)).toList();
        assertThat(budgets.subList(0, 10)).as("the start-up trials run the full budget").containsOnly(27L);
        assertThat(budgets).as("then brackets from 27 / 3^2").contains(3L, 9L).doesNotContain(1L);
    }

    /** Runs {@code trials} trials, each reporting a curve as long as its budget: reversed in the first {@code crossing} steps. */
    private static BohbAdvisor runWithCurves(FakeAdvisorContext ctx, int trials, int crossing) {
        BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 4), SPACE, ctx);
        a.requestTrialJobs(3);
        for (int i = 0; i < trials; i++) {
            Sent t = ctx.running().get(0);
            double[] curve = new double[(int) t.budget()];
            for (int k = 0; k < curve.length; k++) {
                curve[k] = k < crossing ? -objective(t) : objective(t);
            }
            ctx.finishWithCurve(a, t, curve);
            a.requestTrialJobs(1);
        }
        return a;
    }

    @Test
    void aSmallerBudgetFormsTheModelOnlyWhenFullBudgetCurvesShowItRanksAsTheFullBudget() {
        BohbAdvisor crossing = runWithCurves(new FakeAdvisorContext(), 150, 3);
        assertThat(crossing.ranksLikeTheFullBudget(0)).as("budget 1: reversed at step 1").isFalse();
        assertThat(crossing.ranksLikeTheFullBudget(1)).as("budget 3: reversed at step 3").isFalse();
        assertThat(crossing.ranksLikeTheFullBudget(2)).isTrue();
        assertThat(crossing.model()).isNotNull().extracting(BohbAdvisor.Model::budgetIndex).isEqualTo(2);

        BohbAdvisor settled = runWithCurves(new FakeAdvisorContext(), 150, 0);
        assertThat(settled.ranksLikeTheFullBudget(0)).isTrue();
        assertThat(settled.ranksLikeTheFullBudget(1)).isTrue();

        BohbAdvisor early = runWithCurves(new FakeAdvisorContext(), 12, 0);
        assertThat(early.ranksLikeTheFullBudget(0)).as("too few full-budget curves yet").isFalse();

        FakeAdvisorContext silent = new FakeAdvisorContext();
        BohbAdvisor noCurves = advisor(Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 4), SPACE, silent);
        silent.run(noCurves, 3, 12, BohbAdvisorTest::objective);
        assertThat(noCurves.ranksLikeTheFullBudget(0)).as("no intermediate results: the paper's rule").isTrue();
        assertThat(noCurves.model()).isNotNull().extracting(BohbAdvisor.Model::budgetIndex).isEqualTo(0);
    }

    @Test
    void fullBudgetCurvesSurviveACheckpoint(@TempDir Path dir) throws Exception {
        BohbAdvisor crossing = runWithCurves(new FakeAdvisorContext(), 150, 3);
        crossing.saveCheckpoint(dir);
        BohbAdvisor resumed = BohbAdvisor.create(ClassArguments.of(Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 4)));
        resumed.loadCheckpoint(dir);
        resumed.open(new FakeAdvisorContext());
        resumed.updateSearchSpace(SPACE);
        assertThat(resumed.ranksLikeTheFullBudget(0)).isFalse();
        assertThat(resumed.ranksLikeTheFullBudget(2)).isTrue();
    }

    @Test
    void theSameSeedGivesTheSameTrials() {
        assertThat(run(4)).isEqualTo(run(4)).isNotEqualTo(run(5));
    }

    private static List<Sent> run(long seed) {
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        BohbAdvisor a = advisor(Map.of("min_budget", 1, "max_budget", 9, "seed", seed), SPACE, ctx);
        ctx.run(a, 4, 120, BohbAdvisorTest::objective);
        return ctx.sent();
    }

    @Test
    void aResumedAdvisorKeepsItsModelAndSchedule(@TempDir Path dir) throws Exception {
        Map<String, Object> args = Map.of("min_budget", 1, "max_budget", 9, "seed", 6);
        FakeAdvisorContext ctx = new FakeAdvisorContext();
        BohbAdvisor a = advisor(args, SPACE, ctx);
        ctx.run(a, 4, 60, BohbAdvisorTest::objective);
        ctx.finishAll(a, BohbAdvisorTest::objective);
        a.saveCheckpoint(dir);
        a.requestTrialJobs(10);
        List<Sent> uninterrupted = ctx.sent().subList(ctx.sent().size() - 10, ctx.sent().size());

        FakeAdvisorContext ctx2 = new FakeAdvisorContext();
        BohbAdvisor b = BohbAdvisor.create(ClassArguments.of(args));
        b.loadCheckpoint(dir);
        b.open(ctx2);
        b.updateSearchSpace(SPACE);
        b.requestTrialJobs(10);
        assertThat(ctx2.sent().stream().map(Sent::parameters).toList())
                .isEqualTo(uninterrupted.stream().map(Sent::parameters).toList());
    }

    @Test
    void registeredUnderNnisNameWithCheckedArguments() {
        List<AdvisorProvider> providers = new ArrayList<>();
        ServiceLoader.load(AdvisorProvider.class).forEach(providers::add);
        AdvisorProvider bohb = providers.stream().filter(p -> p.name().equals("BOHB")).findFirst().orElseThrow();
        assertThat(bohb.create(ClassArguments.empty())).isInstanceOf(BohbAdvisor.class);
        assertThat(bohb.description()).isNotBlank();
        assertThatThrownBy(() -> bohb.create(ClassArguments.of(Map.of("min_budget", 5, "max_budget", 3))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("min_budget");
        assertThatThrownBy(() -> bohb.create(ClassArguments.of(Map.of("random_fraction", 2)))).hasMessageContaining("'random_fraction'");
        assertThatThrownBy(() -> bohb.create(ClassArguments.of(Map.of("R", 3)))).isInstanceOf(InvalidClassArgumentException.class);
    }
}
