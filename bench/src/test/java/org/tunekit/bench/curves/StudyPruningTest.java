package org.tunekit.bench.curves;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.AssessorProvider;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.study.OptimizeOptions;
import org.tunekit.study.Study;
import org.tunekit.study.Trial;
import org.tunekit.study.TrialPrunedException;
import org.tunekit.study.TrialRecord;
import org.tunekit.study.TrialState;

/**
 * Pruning through the study library with each built-in assessor, on the learning-curve suite: an objective reports one
 * validation error per epoch and stops when {@link Trial#shouldPrune()} says so. Run one trial at a time, the library
 * stops the same trials after the same epochs as the real dispatcher under the manager's loop does for the same tuner,
 * assessor, seed and curves; and each assessor stops some trials and saves epochs.
 */
class StudyPruningTest {
    static final int TRIALS = 40;
    static final long SEED = 5;

    /** The learning-curve benchmark's assessor configurations, and Threshold. */
    static Stream<CurveSetup> assessors() {
        return Stream.concat(CurveSetup.presets().stream().filter(s -> s.assessor() != null),
                Stream.of(new CurveSetup("Threshold", "Threshold", null, Map.of("optimize_mode", "minimize", "upper", 0.5, "n_warmup_steps", 10L))));
    }

    @ParameterizedTest
    @MethodSource("assessors")
    void theLibraryStopsWhatTheDispatcherStops(CurveSetup setup) throws Exception {
        Map<Long, CurveExperiment.TrialRecord> byDispatcher = CurveExperiment.runTuner(random(), assessor(setup), SEED,
                new CurveExperiment.Limits(1, TRIALS, 0)).trials().stream()
                .collect(Collectors.toMap(CurveExperiment.TrialRecord::parameterId, t -> t));

        List<TrialRecord> byLibrary;
        try (Study study = Study.named("curves").space(CurveSuite.spaceDefinition()).tuner("Random", Map.of("seed", SEED)).minimize()
                .assessor(setup.assessor(), setup.arguments()).open()) {
            study.optimize((Trial trial) -> {
                CurveSuite.Curve curve = CurveSuite.curveOf(trial.parameters());
                double value = Double.NaN;
                for (int epoch = 1; epoch <= CurveSuite.EPOCHS; epoch++) {
                    value = curve.observed(SEED, trial.number(), epoch);
                    trial.report(epoch, value);
                    if (trial.shouldPrune()) {
                        throw new TrialPrunedException();
                    }
                }
                return value;
            }, OptimizeOptions.trials(TRIALS));
            byLibrary = study.trials();
        }

        assertThat(byLibrary).hasSize(TRIALS);
        assertThat(byDispatcher).hasSize(TRIALS);
        for (TrialRecord t : byLibrary) {
            CurveExperiment.TrialRecord d = byDispatcher.get(t.parameterId());
            assertThat(t.parameters()).isEqualTo(d.parameters());
            assertThat(t.intermediate()).as("epochs of trial %d with %s", t.number(), setup.label()).hasSize(d.epochs());
            assertThat(t.state() == TrialState.EARLY_STOPPED).as("trial %d stopped early with %s", t.number(), setup.label()).isEqualTo(d.killed());
        }
        long stopped = byLibrary.stream().filter(t -> t.state() == TrialState.EARLY_STOPPED).count();
        long epochs = byLibrary.stream().mapToLong(t -> t.intermediate().size()).sum();
        assertThat(stopped).as("trials stopped early with %s", setup.label()).isPositive();
        assertThat(epochs).as("epochs spent with %s", setup.label()).isLessThan((long) TRIALS * CurveSuite.EPOCHS);
    }

    private static Tuner random() {
        return ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::get).filter(p -> p.name().equals("Random"))
                .findFirst().orElseThrow().create(ClassArguments.of(Map.of("seed", SEED, "optimize_mode", "minimize")));
    }

    private static Assessor assessor(CurveSetup setup) {
        return ServiceLoader.load(AssessorProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equalsIgnoreCase(setup.assessor())).findFirst().orElseThrow()
                .create(ClassArguments.of(setup.arguments()));
    }
}
