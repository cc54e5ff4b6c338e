package org.tunekit.tuners.cmaes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class CmaEsTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new CmaEsTunerProvider().create(ClassArguments.of(arguments));
    }

    private static CmaEsTuner cma(Map<String, Object> arguments) {
        return CmaEsTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) CmaEsTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("sigma0", -0.1))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sigma0");
        assertThatThrownBy(() -> create(Map.of("popsize", 1L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("popsize");
        assertThatThrownBy(() -> create(Map.of("restarts", -1L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("restarts");
    }

    @Test
    void theSearchStartsAtTheCentreOrWhereTheSeedPutsARandomStart() {
        CmaEsTuner centre = cma(Map.of("seed", 1L));
        centre.updateSearchSpace(square());
        assertThat(centre.mean()).containsExactly(0.5, 0.5);
        CmaEsTuner random = cma(Map.of("seed", 1L, "start", "random"));
        random.updateSearchSpace(square());
        CmaEsTuner again = cma(Map.of("seed", 1L, "start", "random"));
        again.updateSearchSpace(square());
        CmaEsTuner other = cma(Map.of("seed", 2L, "start", "random"));
        other.updateSearchSpace(square());
        assertThat(random.mean()).containsExactly(again.mean()).isNotEqualTo(centre.mean()).isNotEqualTo(other.mean());
        for (double m : random.mean()) {
            assertThat(m).isBetween(0.0, 1.0);
        }
        assertThatThrownBy(() -> create(Map.of("start", "middle"))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("start").hasMessageContaining("middle");
    }

    @Test
    void theDefaultPopulationIsFourPlusThreeLogN() {
        CmaEsTuner t = cma(Map.of("seed", 1L));
        t.updateSearchSpace(square());
        assertThat(t.populationSize()).isEqualTo(6);
        CmaEsTuner ten = cma(Map.of("seed", 1L, "popsize", 10L));
        ten.updateSearchSpace(square());
        assertThat(ten.populationSize()).isEqualTo(10);
    }

    @Test
    void aGenerationIsUpdatedWhenItsResultsAreInWhateverTheirOrder() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 3L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 9; i++) {
            ids.add(i);
        }
        List<Parameters> batch = t.generateMultipleParameters(ids); // 6 of generation 0, then 3 more from the same distribution
        assertThat(batch).hasSize(9).doesNotHaveDuplicates();
        List<Integer> order = new ArrayList<>(List.of(8, 2, 5, 0, 7, 1, 3, 6, 4));
        int reported = 0;
        for (int k : order) {
            t.receiveTrialResult(new TrialResult(k, batch.get(k), Metric.of(quadratic(batch.get(k))), false, null));
            reported++;
            assertThat(t.generation()).isEqualTo(reported >= 6 ? 1 : 0);
        }
    }

    @Test
    void failedTrialsDoNotCountTowardsAGeneration() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 3L, "optimize_mode", "minimize", "popsize", 4L));
        t.updateSearchSpace(square());
        List<Parameters> batch = t.generateMultipleParameters(List.of(0L, 1L, 2L, 3L));
        t.trialEnd(0, false);
        for (int k = 1; k < 4; k++) {
            t.receiveTrialResult(new TrialResult(k, batch.get(k), Metric.of(quadratic(batch.get(k))), false, null));
        }
        assertThat(t.generation()).isZero();
        Parameters extra = t.generateParameters(4);
        t.receiveTrialResult(new TrialResult(4, extra, Metric.of(quadratic(extra)), false, null));
        assertThat(t.generation()).isEqualTo(1);
    }

    @Test
    void aFlatObjectiveTriggersRestartsThatDoubleThePopulation() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 5L, "popsize", 4L, "restarts", 2L));
        t.updateSearchSpace(square());
        run(t, 1000, 0, p -> 1.0);
        assertThat(t.restartCount()).isGreaterThanOrEqualTo(3);
        assertThat(t.populationSize()).isEqualTo(16); // 4 doubled twice, then kept
    }

    private static final Map<String, Object> MIN = Map.of("seed", 21L, "optimize_mode", "minimize");

    private static ImportedTrial imported(Parameters p) {
        return new ImportedTrial(p, Metric.of(quadratic(p)));
    }

    /** Asserts that two tuners are in the same state, up to the rounding of parameter values to their last bits. */
    private static void assertSameState(CmaEsTuner rebuilt, CmaEsTuner live) {
        assertThat(rebuilt.generation()).isEqualTo(live.generation());
        assertThat(rebuilt.members()).isEqualTo(live.members());
        assertThat(rebuilt.populationSize()).isEqualTo(live.populationSize());
        assertThat(rebuilt.sigma()).isCloseTo(live.sigma(), within(1e-9 * live.sigma()));
        assertThat(rebuilt.mean()).containsExactly(live.mean(), within(1e-9));
        for (int i = 0; i < live.covariance().length; i++) {
            assertThat(rebuilt.covariance()[i]).containsExactly(live.covariance()[i], within(1e-9));
        }
    }

    private static void assertClose(Parameters a, Parameters b) {
        assertThat(a.getDouble("x")).isCloseTo(b.getDouble("x"), within(1e-9));
        assertThat(a.getDouble("y")).isCloseTo(b.getDouble("y"), within(1e-9));
    }

    @Test
    void importingTheResultsOfALiveRunReplaysItsGenerations() throws Exception {
        CmaEsTuner live = cma(MIN);
        live.updateSearchSpace(square());
        List<ImportedTrial> history = new ArrayList<>();
        for (long id = 0; id < 3 * 6 + 2; id++) { // three generations of 6, and 2 members of the fourth
            Parameters p = live.generateParameters(id);
            live.receiveTrialResult(new TrialResult(id, p, Metric.of(quadratic(p)), false, null));
            history.add(imported(p));
        }
        assertThat(live.generation()).isEqualTo(3);
        CmaEsTuner rebuilt = cma(MIN);
        rebuilt.updateSearchSpace(square());
        rebuilt.importData(history);
        assertSameState(rebuilt, live);
        assertThat(rebuilt.sigma()).isNotEqualTo(0.3); // the replay did update the step size
        // both go on with the same members of the fourth generation
        for (long id = 100; id < 106; id++) {
            assertClose(rebuilt.generateParameters(id), live.generateParameters(id));
        }
    }

    @Test
    void resultsArrivingOutOfOrderFromABatchMakeTheSameGenerationsWhenReplayed() throws Exception {
        CmaEsTuner live = cma(MIN);
        live.updateSearchSpace(square());
        java.util.SplittableRandom order = new java.util.SplittableRandom(4);
        List<ImportedTrial> history = new ArrayList<>();
        Map<Long, Parameters> running = new java.util.LinkedHashMap<>();
        long id = 0;
        while (history.size() < 27) {
            while (running.size() < 3) {
                running.put(id, live.generateParameters(id));
                id++;
            }
            // any running trial may finish first: members of older generations arrive in newer ones
            long done = new ArrayList<>(running.keySet()).get(order.nextInt(running.size()));
            Parameters p = running.remove(done);
            live.receiveTrialResult(new TrialResult(done, p, Metric.of(quadratic(p)), false, null));
            history.add(imported(p));
        }
        CmaEsTuner rebuilt = cma(MIN);
        rebuilt.updateSearchSpace(square());
        rebuilt.importData(history);
        assertThat(live.generation()).isEqualTo(4);
        assertSameState(rebuilt, live);
    }

    @Test
    void aTrailingIncompleteGenerationWaitsForTheRestOfItsMembers() throws Exception {
        CmaEsTuner live = cma(MIN);
        live.updateSearchSpace(square());
        List<ImportedTrial> history = new ArrayList<>();
        for (long id = 0; id < 6 + 5; id++) {
            Parameters p = live.generateParameters(id);
            live.receiveTrialResult(new TrialResult(id, p, Metric.of(quadratic(p)), false, null));
            history.add(imported(p));
        }
        CmaEsTuner one = cma(MIN);
        one.updateSearchSpace(square());
        one.importData(history.subList(0, 6));
        CmaEsTuner eleven = cma(MIN);
        eleven.updateSearchSpace(square());
        eleven.importData(history);
        assertThat(eleven.generation()).isEqualTo(1);
        assertThat(eleven.members()).isEqualTo(5);
        assertThat(eleven.mean()).containsExactly(one.mean(), within(0.0));
        assertThat(eleven.sigma()).isEqualTo(one.sigma());
        // the sixth member completes the generation
        Parameters sixth = live.generateParameters(11);
        eleven.importData(List.of(imported(sixth)));
        live.receiveTrialResult(new TrialResult(11, sixth, Metric.of(quadratic(sixth)), false, null));
        assertThat(eleven.generation()).isEqualTo(2);
        assertSameState(eleven, live);
    }

    @Test
    void aRebuiltTunerSkipsTheMembersAlreadyInAndGivesTheRunningOnesBeforeTheNext() throws Exception {
        CmaEsTuner live = cma(MIN);
        live.updateSearchSpace(square());
        List<Parameters> asked = live.generateMultipleParameters(List.of(0L, 1L, 2L, 3L)); // members 0..3 of generation 0
        // members 1 and 3 are done, 0 and 2 still running
        CmaEsTuner rebuilt = cma(MIN);
        rebuilt.updateSearchSpace(square());
        rebuilt.importData(List.of(imported(asked.get(3)), imported(asked.get(1))));
        assertThat(rebuilt.members()).isEqualTo(2);
        List<Parameters> again = rebuilt.generateMultipleParameters(List.of(10L, 11L, 12L));
        assertClose(again.get(0), asked.get(0));
        assertClose(again.get(1), asked.get(2));
        assertClose(again.get(2), live.generateParameters(4)); // member 4: the next one of the generation
    }

    @Test
    void trialsThisTunerDidNotSuggestAreMembersOfTheGenerationTheyArriveIn() throws Exception {
        CmaEsTuner t = cma(MIN);
        t.updateSearchSpace(square());
        List<ImportedTrial> byHand = new ArrayList<>();
        for (double x : new double[] {0.2, 0.4, 0.6}) {
            for (double y : new double[] {-0.3, 0.3}) {
                byHand.add(imported(Parameters.of(Map.of("x", x, "y", y))));
            }
        }
        t.importData(byHand.subList(0, 5));
        assertThat(t.generation()).isZero();
        assertThat(t.mean()).containsExactly(new double[] {0.5, 0.5}, within(0.0));
        t.importData(byHand.subList(5, 6));
        assertThat(t.generation()).isEqualTo(1);
        // the mean moved to the weighted best three, (0.2..0.4, -0.3) in the unit cube: x near 0.6-0.7, y 0.35
        assertThat(t.mean()[0]).isBetween(0.6, 0.7);
        assertThat(t.mean()[1]).isCloseTo(0.35, within(1e-9));
        // a customized trial of a live run counts as well, as the next member
        Parameters own = t.generateParameters(0);
        t.receiveTrialResult(new TrialResult(0, own, Metric.of(quadratic(own)), false, null));
        t.receiveTrialResult(new TrialResult(1, Parameters.of(Map.of("x", 0.3, "y", -0.2)), Metric.of(0), true, null));
        assertThat(t.members()).isEqualTo(2);
    }

    @Test
    void aTunerThatReplaysTheResultsHasTheSameGenerationAndDraws() throws Exception {
        CmaEsTuner live = cma(MIN);
        live.updateSearchSpace(square());
        List<ImportedTrial> history = new ArrayList<>();
        for (long id = 0; id < 9; id++) {
            Parameters p = live.generateParameters(id);
            live.receiveTrialResult(new TrialResult(id, p, Metric.of(quadratic(p)), false, null));
            history.add(imported(p));
        }
        CmaEsTuner replayed = cma(MIN);
        replayed.updateSearchSpace(square());
        replayed.importData(history);
        assertThat(replayed.generation()).isEqualTo(live.generation()).isEqualTo(1);
        assertThat(replayed.members()).isEqualTo(live.members()).isEqualTo(3);
        assertThat(replayed.sigma()).isEqualTo(live.sigma());
        assertThat(replayed.mean()).containsExactly(live.mean());
        assertThat(replayed.generateMultipleParameters(List.of(9L, 10L))).isEqualTo(live.generateMultipleParameters(List.of(9L, 10L)));
    }

    @Test
    void reflectionKeepsCoordinatesInTheUnitInterval() {
        assertThat(CmaEsTuner.reflect(-0.25)).isEqualTo(0.25);
        assertThat(CmaEsTuner.reflect(1.25)).isEqualTo(0.75);
        assertThat(CmaEsTuner.reflect(2.5)).isEqualTo(0.5);
        assertThat(CmaEsTuner.reflect(0.4)).isEqualTo(0.4);
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(3);
    }
}
