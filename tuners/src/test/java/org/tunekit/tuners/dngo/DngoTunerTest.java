package org.tunekit.tuners.dngo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class DngoTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new DngoTunerProvider().create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) DngoTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("sample_size", 0L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sample_size");
        assertThatThrownBy(() -> create(Map.of("trials_per_update", "often")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("trials_per_update");
        assertThatThrownBy(() -> create(Map.of("num_epochs_per_training", -5L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("num_epochs_per_training");
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(10);
    }

    @Test
    void theNetworkIsRetrainedEveryTrialsPerUpdateResults() throws Exception {
        DngoTuner tuner = DngoTuner.create(ClassArguments.of(Map.of("seed", 1L, "optimize_mode", "minimize",
                "trials_per_update", 7L, "num_epochs_per_training", 20L)));
        tuner.updateSearchSpace(square());
        run(tuner, DngoTuner.INITIAL_DESIGN, 0, UnitCubeTunerContract::quadratic);
        assertThat(tuner.trainedOn()).isEqualTo(-1);
        run(tuner, 1, 100, UnitCubeTunerContract::quadratic);
        assertThat(tuner.trainedOn()).isEqualTo(DngoTuner.INITIAL_DESIGN);
        run(tuner, 6, 200, UnitCubeTunerContract::quadratic);
        assertThat(tuner.trainedOn()).isEqualTo(DngoTuner.INITIAL_DESIGN);
        run(tuner, 1, 300, UnitCubeTunerContract::quadratic);
        assertThat(tuner.trainedOn()).isEqualTo(DngoTuner.INITIAL_DESIGN + 7);
    }

    @Test
    void theNetworkLearnsASmoothFunction() {
        SplittableRandom rng = new SplittableRandom(5);
        double[][] x = new double[60][];
        double[] y = new double[60];
        for (int i = 0; i < x.length; i++) {
            x[i] = new double[] {rng.nextDouble(), rng.nextDouble()};
            y[i] = Math.sin(3 * x[i][0]) + x[i][1] * x[i][1];
        }
        NeuralBasis net = new NeuralBasis(2, 20, new SplittableRandom(1));
        double first = net.train(x, y, 1, new SplittableRandom(2));
        double last = net.train(x, y, 300, new SplittableRandom(2));
        assertThat(last).isLessThan(first / 20).isLessThan(0.01);
    }

    @Test
    void bayesianLinearRegressionRecoversALinearFunctionAndIsUnsureFarAway() {
        SplittableRandom rng = new SplittableRandom(8);
        double[][] basis = new double[40][];
        double[] y = new double[40];
        for (int i = 0; i < basis.length; i++) {
            double a = rng.nextDouble(-1, 1);
            basis[i] = new double[] {a};
            y[i] = 2 * a - 0.5 + 0.01 * rng.nextGaussian();
        }
        double[][] phi = BayesianLinearRegression.design(basis);
        BayesianLinearRegression.Precisions p = BayesianLinearRegression.fit(phi, y);
        assertThat(1 / Math.sqrt(p.beta())).as("noise sd").isBetween(0.005, 0.02);
        BayesianLinearRegression.Posterior post = BayesianLinearRegression.posterior(phi, y, p);
        double[] near = post.predict(new double[] {0.5, 1});
        double[] far = post.predict(new double[] {20, 1});
        assertThat(near[0]).isCloseTo(0.5, Offset.offset(0.01));
        assertThat(far[1]).isGreaterThan(100 * near[1]);
    }

    @Test
    void expectedImprovementOfACertainPredictionIsItsImprovement() {
        assertThat(DngoTuner.expectedImprovement(-1, 0, 0)).isEqualTo(1.0);
        assertThat(DngoTuner.expectedImprovement(1, 0, 0)).isEqualTo(0.0);
        assertThat(DngoTuner.expectedImprovement(0, 1, 0)).isCloseTo(1 / Math.sqrt(2 * Math.PI), Offset.offset(1e-12));
    }

    @Test
    void jacobiRotationsDiagonaliseASymmetricMatrixWithRepeatedEigenvalues() {
        double[][] m = {{2, 1, 0, 0}, {1, 2, 0, 0}, {0, 0, 3, 0}, {0, 0, 0, 3}};
        BayesianLinearRegression.Eigen e = BayesianLinearRegression.jacobi(m);
        double[] sorted = e.lambda().clone();
        java.util.Arrays.sort(sorted);
        assertThat(sorted).containsExactly(new double[] {1, 3, 3, 3}, Offset.offset(1e-12));
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 4; i++) {
                double mv = 0;
                for (int j = 0; j < 4; j++) {
                    mv += m[i][j] * e.v()[j][k];
                }
                assertThat(mv).isCloseTo(e.lambda()[k] * e.v()[i][k], Offset.offset(1e-12));
            }
        }
    }

    @Test
    void pendingPointsDampTheAcquisitionNextToThem() {
        List<double[]> pending = List.of(new double[] {0.5, 0.5});
        assertThat(DngoTuner.pendingPenalty(new double[] {0.5, 0.5}, pending)).isZero();
        assertThat(DngoTuner.pendingPenalty(new double[] {0.55, 0.5}, pending)).isLessThan(0.2);
        assertThat(DngoTuner.pendingPenalty(new double[] {0.9, 0.1}, pending)).isGreaterThan(0.99);
        assertThat(DngoTuner.pendingPenalty(new double[] {0.5, 0.5}, List.of())).isEqualTo(1.0);
    }
}
