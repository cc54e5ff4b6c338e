package org.tunekit.tuners.contract;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.Check;
import org.tunekit.sdk.testkit.TunerTestKit;
import org.tunekit.tuners.anneal.AnnealTunerProvider;
import org.tunekit.tuners.auto.AutoTunerProvider;
import org.tunekit.tuners.evolution.EvolutionTunerProvider;
import org.tunekit.tuners.grid.GridSearchTunerProvider;
import org.tunekit.tuners.regevo.RegularizedEvolutionTunerProvider;
import org.tunekit.tuners.cmaes.CmaEsTunerProvider;
import org.tunekit.tuners.dngo.DngoTunerProvider;
import org.tunekit.tuners.gp.GpTunerProvider;
import org.tunekit.tuners.pbt.PbtTunerProvider;
import org.tunekit.tuners.metis.MetisTunerProvider;
import org.tunekit.tuners.random.RandomTunerProvider;
import org.tunekit.tuners.smac.SmacTunerProvider;
import org.tunekit.tuners.sobol.SobolTunerProvider;
import org.tunekit.tuners.tpe.TpeTunerProvider;
import org.tunekit.tuners.turbo.TurboTunerProvider;

/**
 * The built-in tuners pass the SDK's shared contract, the same checks a plugin author runs.
 * {@code BatchTuner} is the exception by design: its parameter sets are the options of its single
 * {@code combine_params} choice rather than values of the space, so its own tests cover it.
 * {@code PBTTuner} runs them through {@link WithoutCheckpointDirectories}, because its parameter
 * sets carry two keys outside the space by design.
 */
class BuiltInTunerContractTest {

    @Test
    void random() {
        TunerTestKit.forProvider(new RandomTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void gridSearch() {
        TunerTestKit.forProvider(new GridSearchTunerProvider())
                .skip(Check.SEED, "the grid has no randomness: every instance walks the same grid")
                .checkContract();
    }

    @Test
    void sobol() {
        TunerTestKit.forProvider(new SobolTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void cmaes() {
        TunerTestKit.forProvider(new CmaEsTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void auto() {
        TunerTestKit.forProvider(new AutoTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void gp() {
        TunerTestKit.forProvider(new GpTunerProvider()).withArguments(Map.of("seed", 7, "cold_start_num", 3)).checkContract();
    }

    @Test
    void turbo() {
        TunerTestKit.forProvider(new TurboTunerProvider()).withArguments(Map.of("seed", 7, "initial_points", 3)).checkContract();
    }

    @Test
    void tpe() {
        TunerTestKit.forProvider(new TpeTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void multivariateTpe() {
        TunerTestKit.forProvider(new TpeTunerProvider()).withArguments(Map.of("seed", 7, "multivariate", true)).checkContract();
    }

    /**
     * PBT's parameter sets hold the space's parameters plus {@code load_checkpoint_dir} and
     * {@code save_checkpoint_dir}, which no search space has, so the shared checks see them through
     * {@link WithoutCheckpointDirectories}. With a population of 8 the checks' batches of 8 fall
     * on round boundaries (each batch is all reported before the next), so a batch is never cut
     * short by members still running.
     */
    @Test
    void pbt(@TempDir Path checkpoints) {
        TunerTestKit.forTuner(arguments -> new WithoutCheckpointDirectories(new PbtTunerProvider().create(arguments)))
                .withArguments(Map.of("seed", 7, "population_size", 8, "all_checkpoint_dir", checkpoints.toString()))
                .skip(Check.NO_DUPLICATES, "members that are not exploiting continue with the same hyper-parameters in every round")
                .skip(Check.EXHAUSTION, "PBT trains its population for as many rounds as it is asked: it never runs out")
                .checkContract();
    }

    /**
     * A tuner seen without PBT's two directory keys: it checks that every set the wrapped tuner
     * hands out has both, as absolute paths, and passes the rest on. Everything else is delegated.
     */
    static final class WithoutCheckpointDirectories implements Tuner {
        static final String LOAD = "load_checkpoint_dir";
        static final String SAVE = "save_checkpoint_dir";
        private final Tuner pbt;

        WithoutCheckpointDirectories(Tuner pbt) {
            this.pbt = pbt;
        }

        static Parameters strip(Parameters p) {
            Map<String, Object> values = new LinkedHashMap<>(p.values());
            for (String key : List.of(LOAD, SAVE)) {
                Object dir = values.remove(key);
                if (!(dir instanceof String s) || !Path.of(s).isAbsolute()) {
                    throw new AssertionError("PBT parameter set without an absolute '" + key + "': " + p.values());
                }
            }
            return Parameters.of(values);
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            pbt.updateSearchSpace(space);
        }

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            return strip(pbt.generateParameters(parameterId));
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
            List<Parameters> out = new ArrayList<>();
            for (Parameters p : pbt.generateMultipleParameters(parameterIds)) {
                out.add(strip(p));
            }
            return out;
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            pbt.receiveTrialResult(result);
        }

        @Override
        public void trialEnd(long parameterId, boolean success) {
            pbt.trialEnd(parameterId, success);
        }

        @Override
        public void importData(List<ImportedTrial> trials) {
            pbt.importData(trials);
        }

        @Override
        public void saveCheckpoint(Path directory) throws IOException {
            pbt.saveCheckpoint(directory);
        }

        @Override
        public void loadCheckpoint(Path directory) throws IOException {
            pbt.loadCheckpoint(directory);
        }
    }

    @Test
    void anneal() {
        TunerTestKit.forProvider(new AnnealTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void evolution() {
        TunerTestKit.forProvider(new EvolutionTunerProvider()).withArguments(Map.of("seed", 7, "population_size", 8)).checkContract();
    }

    @Test
    void regularizedEvolution() {
        TunerTestKit.forProvider(new RegularizedEvolutionTunerProvider())
                .withArguments(Map.of("seed", 7, "population_size", 20, "sample_size", 5)).checkContract();
    }

    @Test
    void smac() {
        TunerTestKit.forProvider(new SmacTunerProvider()).withArguments(Map.of("seed", 7, "n_startup_jobs", 3)).checkContract();
    }

    @Test
    void metis() {
        TunerTestKit.forProvider(new MetisTunerProvider()).withArguments(Map.of("seed", 7, "cold_start_num", 3)).checkContract();
    }

    @Test
    void dngo() {
        TunerTestKit.forProvider(new DngoTunerProvider()).withArguments(Map.of("seed", 7, "num_epochs_per_training", 100)).checkContract();
    }
}
