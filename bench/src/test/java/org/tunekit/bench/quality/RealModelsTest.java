package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tunekit.demo.TestFunction;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/** The real-model problems through their Python process: every space is valid, and an evaluation is a cross-validated loss. */
class RealModelsTest {
    static Map<String, TestFunction> problems;

    @BeforeAll
    static void sklearn() throws Exception {
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import sklearn").start();
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0,
                "Debian's python3-sklearn is not installed: apt-get install python3-sklearn to test the real-model problems");
        problems = RealModels.all();
    }

    @Test
    void everyProblemHasAValidSpace() {
        assertThat(problems).hasSize(90).containsKeys("RF-wine-nll", "MLP-adam-digits-acc", "lasso-diabetes-mse");
        for (TestFunction f : problems.values()) {
            SearchSpace s = SearchSpace.parse(f.space());
            assertThat(s.parameters()).as(f.name()).isNotEmpty();
        }
    }

    @Test
    void anEvaluationIsTheCrossValidatedLossAndABadParameterSetIsNamed() {
        TestFunction knn = problems.get("kNN-iris-acc");
        double error = knn.evaluate(Parameters.of(Map.of("n_neighbors", 5L, "p", 2L)));
        assertThat(error).isBetween(0.0, 0.2);
        assertThat(knn.evaluate(Parameters.of(Map.of("n_neighbors", 5L, "p", 2L)))).isEqualTo(error);
        assertThatThrownBy(() -> knn.evaluate(Parameters.of(Map.of("n_neighbors", 5L)))).hasMessageContaining("kNN-iris-acc")
                .hasMessageContaining("do not match the space");
    }
}
