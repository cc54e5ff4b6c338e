package org.tunekit.katib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.katib.api.AlgorithmSetting;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;

class ConstantLiarTest {
    private static final Algorithms ALGORITHMS = new Algorithms(AlgorithmCatalog.discover(List.of()));
    private static final List<ParameterSpec> PARAMS = List.of(Katib.doubles("x", "0", "1"));
    private static final KatibSpace SPACE = KatibSpace.of(PARAMS);

    private static Suggester.Setup setup(String algorithm, String startup, OptimizeMode mode) {
        List<AlgorithmSetting> settings = startup == null ? List.of()
                : List.of(AlgorithmSetting.newBuilder().setName("n_startup_trials").setValue(startup).build());
        return new Suggester.Setup(SPACE, ALGORITHMS.resolve(algorithm, settings), mode, "loss");
    }

    private static Parameters at(String x) {
        return SPACE.toTunekit(Katib.assign("x", x));
    }

    private static final List<ImportedTrial> DATA = List.of(new ImportedTrial(at("0.1"), Metric.of(1.0)),
            new ImportedTrial(at("0.5"), Metric.of(3.0)), new ImportedTrial(at("0.9"), Metric.of(2.0)));

    @Test
    void runningTrialsLieAtTheWorstCompletedValueOnceTpeLeftItsStartUp() {
        for (String algorithm : List.of("tpe", "multivariate-tpe")) {
            List<ImportedTrial> min = Suggester.lies(setup(algorithm, "3", OptimizeMode.MINIMIZE), DATA, List.of(at("0.3"), at("0.7")));
            assertEquals(2, min.size());
            assertEquals(at("0.3"), min.get(0).parameters());
            assertEquals(3.0, min.get(0).metric().value());
            assertEquals(3.0, min.get(1).metric().value());
            List<ImportedTrial> max = Suggester.lies(setup(algorithm, "2", OptimizeMode.MAXIMIZE), DATA, List.of(at("0.3")));
            assertEquals(1.0, max.get(0).metric().value());
        }
    }

    @Test
    void noLiesDuringStartUpWithoutDataOrForOtherAlgorithms() {
        assertTrue(Suggester.lies(setup("tpe", null, OptimizeMode.MINIMIZE), DATA, List.of(at("0.3"))).isEmpty(), "Katib's default start-up is 10");
        assertTrue(Suggester.lies(setup("tpe", "4", OptimizeMode.MINIMIZE), DATA, List.of(at("0.3"))).isEmpty());
        assertTrue(Suggester.lies(setup("tpe", "0", OptimizeMode.MINIMIZE), List.of(), List.of(at("0.3"))).isEmpty());
        assertTrue(Suggester.lies(setup("tpe", "0", OptimizeMode.MINIMIZE), DATA, List.of()).isEmpty());
        assertTrue(Suggester.lies(setup("cmaes", null, OptimizeMode.MINIMIZE), DATA, List.of(at("0.3"))).isEmpty());
        assertTrue(Suggester.lies(setup("random", null, OptimizeMode.MINIMIZE), DATA, List.of(at("0.3"))).isEmpty());
    }
}
