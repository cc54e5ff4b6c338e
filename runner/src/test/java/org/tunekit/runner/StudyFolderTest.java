package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.study.OptimizeOptions;
import org.tunekit.study.Storage;
import org.tunekit.study.Study;
import org.tunekit.study.TrialPrunedException;
import org.tunekit.study.TrialState;
import picocli.CommandLine;

/** A study of the library kept in an experiment folder is an experiment to tunekit results, and not one tunekit run can resume. */
class StudyFolderTest {
    @TempDir
    Path tmp;

    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -2, 2).randint("depth", 1, 6).build();

    private static int run(Object command, StringWriter out, StringWriter err, String... args) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void tunekitResultsReadsAStudyAsAnExperiment() throws Exception {
        Path folder = tmp.resolve("study");
        try (Study study = Study.named("library-study").space(SPACE).tuner("TPE").seed(3).minimize().assessor("Medianstop")
                .storage(Storage.sqlite(folder)).open()) {
            study.optimize(trial -> {
                double loss = Math.pow(trial.getDouble("x") - 0.5, 2) + trial.getLong("depth");
                for (int epoch = 1; epoch <= 5; epoch++) {
                    trial.report(epoch, loss + 1.0 / epoch);
                    if (trial.shouldPrune()) {
                        throw new TrialPrunedException();
                    }
                }
                return loss;
            }, OptimizeOptions.trials(20).threads(2));
            assertThat(ExperimentReader.running(folder)).as("running while a program holds the study").isTrue();
        }
        assertThat(ExperimentReader.running(folder)).as("running once closed").isFalse();

        ExperimentResults results;
        try (ExperimentStore store = ExperimentStore.open(folder, true)) {
            results = store.results();
        }
        assertThat(results.name()).isEqualTo("library-study");
        assertThat(results.trials()).hasSize(20);
        assertThat(results.maximize()).isFalse();
        assertThat(results.best()).isNotEmpty();

        // what the dashboard reads
        try (ExperimentReader reader = ExperimentReader.open(folder)) {
            ExperimentReader.Overview o = reader.overview();
            assertThat(o.name()).isEqualTo("library-study");
            assertThat(o.status()).isEqualTo("STOPPED");
            assertThat(o.tuner()).isEqualTo("TPE");
            assertThat(reader.trials()).hasSize(20);
            assertThat(reader.intermediate(java.util.Set.of(reader.trials().get(0).jobId())).values().iterator().next()).isNotEmpty();
        }

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(new ResultsCommand(), out, err, folder.toString(), "--out", tmp.resolve("out").toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("library-study").contains("Best parameters:").contains("depth");
        assertThat(Files.readString(tmp.resolve("out/trials.csv")).lines().count()).isEqualTo(21);
        assertThat(Files.readString(tmp.resolve("out/intermediate.csv"))).isNotBlank();
    }

    @Test
    void aMultiObjectiveStudyShowsItsParetoFront() {
        Path folder = tmp.resolve("mo");
        try (Study study = Study.named("two").space(SPACE).tuner("MOTPE").seed(1).objective("error", OptimizeMode.MINIMIZE)
                .objective("speed", OptimizeMode.MAXIMIZE).storage(Storage.sqlite(folder)).open()) {
            study.optimizeMulti(trial -> new double[] {Math.abs(trial.getDouble("x")), trial.getLong("depth")}, OptimizeOptions.trials(15));
            assertThat(study.bestTrials()).isNotEmpty().allMatch(t -> t.state() == TrialState.SUCCEEDED);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(new ResultsCommand(), out, err, folder.toString())).as(err.toString()).isZero();
        assertThat(out.toString()).contains("Pareto front");
    }

    @Test
    void tunekitRunDoesNotResumeAStudy() {
        Path folder = tmp.resolve("s");
        Study.named("s").space(SPACE).storage(Storage.sqlite(folder)).open().close();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(new RunCommand(), out, err, "--resume", folder.toString(), "--no-ui")).isEqualTo(2);
        assertThat(err.toString()).contains("holds a study of the Tunekit library").contains("Study.load");
    }
}
