package org.tunekit.examples.tuner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.TargetFunction;
import org.tunekit.sdk.testkit.TunerRun;
import org.tunekit.sdk.testkit.TunerTestKit;

class CoordinateSearchTunerTest {

    @Test
    void keepsTheTunerContract() {
        TunerTestKit.forProvider(new CoordinateSearchTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void keepsTheContractInBatches() {
        TunerTestKit.forProvider(new CoordinateSearchTunerProvider()).withArguments(Map.of("seed", 3)).withBatchSize(4).checkContract();
    }

    @Test
    void walksDownAValley() {
        SearchSpace space = SearchSpace.builder().uniform("x", -5, 5).uniform("y", -5, 5).choice("scale", 1, 10).build();
        TunerRun run = TunerTestKit.forProvider(new CoordinateSearchTunerProvider())
                .withSpace(space)
                .withArguments(Map.of("seed", 7, "optimize_mode", "minimize"))
                .run(TargetFunction.minimize(p -> ((Number) p.get("scale")).doubleValue()
                        * (Math.pow(p.getDouble("x") - 1, 2) + Math.pow(p.getDouble("y") + 2, 2))), 60);
        assertTrue(run.best().value() < 0.05, "best " + run.best());
    }
}
