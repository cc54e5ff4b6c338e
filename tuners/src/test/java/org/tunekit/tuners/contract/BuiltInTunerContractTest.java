package org.tunekit.tuners.contract;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.testkit.Check;
import org.tunekit.sdk.testkit.TunerTestKit;
import org.tunekit.tuners.grid.GridSearchTunerProvider;
import org.tunekit.tuners.cmaes.CmaEsTunerProvider;
import org.tunekit.tuners.dngo.DngoTunerProvider;
import org.tunekit.tuners.gp.GpTunerProvider;
import org.tunekit.tuners.metis.MetisTunerProvider;
import org.tunekit.tuners.random.RandomTunerProvider;
import org.tunekit.tuners.sobol.SobolTunerProvider;
import org.tunekit.tuners.tpe.TpeTunerProvider;

/**
 * The built-in tuners pass the SDK's shared contract, the same checks a plugin author runs.
 * {@code BatchTuner} is the exception by design: its parameter sets are the options of its single
 * {@code combine_params} choice rather than values of the space, so its own tests cover it.
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
    void gp() {
        TunerTestKit.forProvider(new GpTunerProvider()).withArguments(Map.of("seed", 7, "cold_start_num", 3)).checkContract();
    }

    @Test
    void tpe() {
        TunerTestKit.forProvider(new TpeTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void multivariateTpe() {
        TunerTestKit.forProvider(new TpeTunerProvider()).withArguments(Map.of("seed", 7, "multivariate", true)).checkContract();
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
