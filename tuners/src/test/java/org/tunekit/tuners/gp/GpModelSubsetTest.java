package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;

/** The GP's model is bounded in size, and keeps what matters: the best results and the latest. */
class GpModelSubsetTest {

    private static Observation observation(long id, double loss) {
        return new Observation(Parameters.of(Map.of("id", id)), new double[0], loss);
    }

    @Test
    void aLongHistoryIsCutToTheBestAndTheMostRecent() {
        List<Observation> all = new ArrayList<>();
        int n = 2000;
        for (int i = 0; i < n; i++) {
            // losses fall over the first half, so the best are old; the recent ones are mediocre
            all.add(observation(i, i < n / 2 ? 1.0 - i / (double) n : 5.0 + i));
        }
        List<Observation> subset = GpSurrogate.modelPoints(all);
        assertThat(subset).hasSize(GpSurrogate.MAX_POINTS);
        List<Long> ids = subset.stream().map(o -> o.parameters().getLong("id")).toList();
        assertThat(ids).as("in their original order").isSorted();
        int best = GpSurrogate.MAX_POINTS / 4;
        for (long id = n / 2 - best; id < n / 2; id++) {
            assertThat(ids).as("one of the best").contains(id);
        }
        for (long id = n - (GpSurrogate.MAX_POINTS - best); id < n; id++) {
            assertThat(ids).as("one of the most recent").contains(id);
        }
    }

    @Test
    void suggestionsAfterALargeImportStayInTheSpace() throws Exception {
        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).uniform("y", 0, 1).build();
        org.tunekit.sdk.Tuner tuner = new GpTunerProvider().create(ClassArguments.of(Map.of("seed", 3, "optimize_mode", "minimize")));
        tuner.updateSearchSpace(space);
        SplittableRandom rng = new SplittableRandom(1);
        List<ImportedTrial> data = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            Parameters p = space.sample(rng);
            double x = p.getDouble("x") - 0.3;
            double y = p.getDouble("y") - 0.6;
            data.add(new ImportedTrial(p, Metric.of(x * x + y * y)));
        }
        tuner.importData(data);
        for (long id = 0; id < 3; id++) {
            Parameters p = tuner.generateParameters(id);
            assertThat(space.violation(p)).isEmpty();
            double x = p.getDouble("x") - 0.3;
            double y = p.getDouble("y") - 0.6;
            assertThat(x * x + y * y).as("the model still points at the minimum").isLessThan(0.05);
        }
    }
}
