package org.tunekit.bench.curves;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

class CurveSuiteTest {
    private static final SearchSpace SPACE = SearchSpace.parse(CurveSuite.spaceDefinition());

    private static Parameters params(double lr, long batch, double width, String schedule) {
        return Parameters.of(Map.of("lr", lr, "batch_size", batch, "width", width, "schedule", schedule));
    }

    @Test
    void observedValuesAreDeterministicPerSeedTrialAndEpoch() {
        CurveSuite.Curve c = CurveSuite.curveOf(params(0.01, 32, 0.5, "cosine"));
        assertThat(c.observed(7, 3, 10)).isEqualTo(c.observed(7, 3, 10));
        assertThat(CurveSuite.curveOf(params(0.01, 32, 0.5, "cosine")).observed(7, 3, 10)).isEqualTo(c.observed(7, 3, 10));
        assertThat(c.observed(8, 3, 10)).isNotEqualTo(c.observed(7, 3, 10));
        assertThat(c.observed(7, 4, 10)).isNotEqualTo(c.observed(7, 3, 10));
        assertThat(c.observed(7, 3, 11) - c.mean(11)).isNotEqualTo(c.observed(7, 3, 10) - c.mean(10));
    }

    @Test
    void everyFamilyStartsAtChanceAndEndsExactlyAtItsFinalValue() {
        SplittableRandom random = new SplittableRandom(1);
        Set<CurveSuite.Family> seen = EnumSet.noneOf(CurveSuite.Family.class);
        for (int i = 0; i < 2000; i++) {
            Parameters p = SPACE.sample(random);
            CurveSuite.Curve c = CurveSuite.curveOf(p);
            seen.add(c.family());
            assertThat(c.mean(0)).as("%s", p).isCloseTo(CurveSuite.CHANCE, within(1e-9));
            assertThat(c.mean(CurveSuite.EPOCHS)).as("%s", p).isCloseTo(c.finalValue(), within(1e-12));
            assertThat(c.finalValue()).as("%s", p).isGreaterThanOrEqualTo(CurveSuite.OPTIMUM);
            assertThat(CurveSuite.regret(p)).isGreaterThanOrEqualTo(0);
        }
        assertThat(seen).containsExactlyInAnyOrder(CurveSuite.Family.values());
    }

    @Test
    void theOptimumIsReachedAtTheDocumentedConfiguration() {
        Parameters best = params(Math.pow(10, -1.5), 64, 0.7, "warmup");
        assertThat(CurveSuite.curveOf(best).family()).isEqualTo(CurveSuite.Family.SLOW_START);
        assertThat(CurveSuite.regret(best)).isCloseTo(0, within(1e-12));
    }

    @Test
    void slowStartersOvertakeFastStarters() {
        CurveSuite.Curve fast = CurveSuite.curveOf(params(Math.pow(10, -2.5), 64, 0.7, "constant"));
        CurveSuite.Curve slow = CurveSuite.curveOf(params(Math.pow(10, -1.5), 64, 0.7, "warmup"));
        assertThat(fast.family()).isEqualTo(CurveSuite.Family.EXPONENTIAL);
        assertThat(slow.mean(3)).isGreaterThan(fast.mean(3) + 0.2);
        assertThat(slow.mean(CurveSuite.EPOCHS)).isLessThan(fast.mean(CurveSuite.EPOCHS) - 0.03);
    }

    @Test
    void theRankingSettlesOnlyAfterTheWarmUpPhase() {
        double first = CurveSuite.rankCorrelation(1, 2000, 1, SuitePace.LATE_SETTLING);
        double tenth = CurveSuite.rankCorrelation(10, 2000, 1, SuitePace.LATE_SETTLING);
        double late = CurveSuite.rankCorrelation(40, 2000, 1, SuitePace.LATE_SETTLING);
        assertThat(first).as("one epoch says almost nothing").isBetween(-0.2, 0.2);
        assertThat(tenth).isGreaterThan(first + 0.2);
        assertThat(late).isGreaterThan(0.9).isLessThan(1);
        assertThat(CurveSuite.rankCorrelation(10, 2000, 1, SuitePace.LATE_SETTLING)).as("seeded").isEqualTo(tenth);
        assertThatThrownBy(() -> CurveSuite.rankCorrelation(0, 10, 1, SuitePace.LATE_SETTLING)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theEarlySettlingPaceKeepsEveryFinalValueAndSettlesWithinATenthOfTraining() {
        SearchSpace space = SearchSpace.parse(CurveSuite.spaceDefinition());
        SplittableRandom random = new SplittableRandom(4);
        for (int i = 0; i < 200; i++) {
            Parameters p = space.sample(random);
            CurveSuite.Curve late = CurveSuite.curveOf(p, SuitePace.LATE_SETTLING);
            CurveSuite.Curve early = CurveSuite.curveOf(p, SuitePace.EARLY_SETTLING);
            assertThat(early.family()).isEqualTo(late.family());
            assertThat(early.finalValue()).isEqualTo(late.finalValue());
            assertThat(early.mean(CurveSuite.EPOCHS)).isCloseTo(late.mean(CurveSuite.EPOCHS), within(1e-12));
            assertThat(early.mean(0)).isCloseTo(late.mean(0), within(1e-12));
            assertThat(early.mean(5)).as("progresses faster").isLessThanOrEqualTo(late.mean(5) + 1e-12);
        }
        assertThat(CurveSuite.rankCorrelation(5, 2000, 1, SuitePace.EARLY_SETTLING)).isGreaterThan(0.6);
        assertThat(CurveSuite.rankCorrelation(5, 2000, 1, SuitePace.LATE_SETTLING)).isLessThan(0.3);
        CurveSuite.Curve fast = CurveSuite.curveOf(params(Math.pow(10, -2.5), 64, 0.7, "constant"), SuitePace.EARLY_SETTLING);
        CurveSuite.Curve slow = CurveSuite.curveOf(params(Math.pow(10, -1.5), 64, 0.7, "warmup"), SuitePace.EARLY_SETTLING);
        assertThat(slow.mean(1)).as("curves still cross").isGreaterThan(fast.mean(1));
        assertThat(slow.mean(CurveSuite.EPOCHS)).isLessThan(fast.mean(CurveSuite.EPOCHS));
    }

    @Test
    void paceNamesAreParsedAndUnknownOnesListed() {
        assertThat(SuitePace.parse(" Early-Settling ")).isEqualTo(SuitePace.EARLY_SETTLING);
        assertThat(SuitePace.parse("late-settling")).isEqualTo(SuitePace.LATE_SETTLING);
        assertThatThrownBy(() -> SuitePace.parse("fast")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown suite 'fast'; available: late-settling, early-settling");
    }

    @Test
    void divergingCurvesDipThenClimbToTheirPlateau() {
        CurveSuite.Curve c = CurveSuite.curveOf(params(0.9, 64, 0.7, "constant"));
        assertThat(c.family()).isEqualTo(CurveSuite.Family.DIVERGING);
        double min = Double.MAX_VALUE;
        for (int e = 1; e <= CurveSuite.EPOCHS; e++) {
            min = Math.min(min, c.mean(e));
        }
        assertThat(min).isLessThan(0.5);
        assertThat(c.mean(CurveSuite.EPOCHS)).isCloseTo(CurveSuite.DIVERGED, within(1e-12));
    }

    @Test
    void trialBudgetSetsTheEpochs() {
        assertThat(CurveSuite.epochsOf(params(0.01, 64, 0.5, "cosine"))).isEqualTo(CurveSuite.EPOCHS);
        assertThat(CurveSuite.epochsOf(Parameters.of(Map.of("TRIAL_BUDGET", 1.85)))).isEqualTo(2);
        assertThat(CurveSuite.epochsOf(Parameters.of(Map.of("TRIAL_BUDGET", 5)))).isEqualTo(5);
        assertThat(CurveSuite.epochsOf(Parameters.of(Map.of("TRIAL_BUDGET", 500)))).isEqualTo(CurveSuite.EPOCHS);
        assertThatThrownBy(() -> CurveSuite.epochsOf(Parameters.of(Map.of("TRIAL_BUDGET", "x"))))
                .hasMessageContaining("TRIAL_BUDGET");
        assertThatThrownBy(() -> CurveSuite.curveOf(Parameters.of(Map.of("lr", 0.1, "batch_size", 64, "width", 0.5, "schedule", "adam"))))
                .hasMessageContaining("schedule");
    }
}
