package org.tunekit.examples.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.AdvisorRun;
import org.tunekit.sdk.testkit.AdvisorTestKit;

class HalvingAdvisorTest {
    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).build();

    /** A curve of budget-many epochs that climbs towards x: the larger x, the better. */
    private static double[] curve(Parameters p) {
        int epochs = (int) p.getLong(HalvingAdvisor.BUDGET);
        double[] values = new double[epochs];
        for (int e = 0; e < epochs; e++) {
            values[e] = p.getDouble("x") * (1 - Math.pow(0.5, e + 1));
        }
        return values;
    }

    @Test
    void promotesTheBestThirdToThreeTimesTheBudget() {
        AdvisorRun run = AdvisorTestKit.forProvider(new HalvingAdvisorProvider())
                .withArguments(Map.of("seed", 1))
                .withSpace(SPACE)
                .run(13, HalvingAdvisorTest::curve);
        List<AdvisorRun.Trial> trials = run.trials();
        assertEquals(13, trials.size());
        for (AdvisorRun.Trial t : trials.subList(0, 9)) {
            assertEquals(1L, t.parameters().get(HalvingAdvisor.BUDGET));
        }
        double[] xs = trials.subList(0, 9).stream().mapToDouble(t -> t.parameters().getDouble("x")).sorted().toArray();
        for (AdvisorRun.Trial t : trials.subList(9, 12)) {
            assertEquals(3L, t.parameters().get(HalvingAdvisor.BUDGET));
            assertTrue(t.parameters().getDouble("x") >= xs[6], "promoted " + t.parameters() + ", top three from " + java.util.Arrays.toString(xs));
        }
        assertEquals(9L, trials.get(12).parameters().get(HalvingAdvisor.BUDGET));
    }

    @Test
    void keepsGoingWithNewBracketsOnTheWholeSpace() {
        AdvisorRun run = AdvisorTestKit.forProvider(new HalvingAdvisorProvider())
                .withArguments(Map.of("seed", 2, "n", 4, "eta", 2, "max_budget", 4, "optimize_mode", "maximize"))
                .withSlots(3)
                .run(20, p -> new double[] {1});
        assertEquals(20, run.trials().size());
    }
}
