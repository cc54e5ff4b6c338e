package ${package};

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.Objective;
import org.tunekit.sdk.testkit.TunerRun;
import org.tunekit.sdk.testkit.TunerTestKit;

class LocalSearchTunerTest {

    /** The checks every tuner must pass: values inside the space, same seed same sequence, resume, ... */
    @Test
    void keepsTheTunerContract() {
        TunerTestKit.forProvider(new LocalSearchTunerProvider()).withArguments(Map.of("seed", 7)).checkContract();
    }

    @Test
    void findsTheMinimumOfAQuadratic() {
        TunerRun run = TunerTestKit.forProvider(new LocalSearchTunerProvider())
                .withSpace(SearchSpace.builder().uniform("x", -5, 5).uniform("y", -5, 5).build())
                .withArguments(Map.of("seed", 7, "optimize_mode", "minimize"))
                .run(Objective.minimize(p -> Math.pow(p.getDouble("x") - 1, 2) + Math.pow(p.getDouble("y") + 2, 2)), 60);
        assertTrue(run.best().value() < 0.5, "best " + run.best());
    }
}
