package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.tunekit.it.Sql.count;
import static org.tunekit.it.Sql.strings;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The study library's example programs, run as their READMEs give them ({@code examples/study-java/run.sh},
 * {@code examples/study-kotlin/run.sh}) with a few trials: each builds itself with the Maven wrapper when needed,
 * tunes its real model on its real data set in-process, prints the best trial, and leaves an {@code experiment.db}
 * whose trials, intermediate values and pruning are checked here, and which {@code tunekit results} reads.
 *
 * <p>The build inside the scripts uses this build's local repository ({@code MAVEN_ARGS}), offline when it has
 * everything, so a first run in a fresh checkout builds the examples (Kotlin's compiler included) here.
 */
class StudyExamplesIT {
    private static final Path HOME = TunekitProcess.HOME;
    private static final Pattern SUMMARY = Pattern.compile("(?m)^(\\d+) trials run(?: here)?: (\\d+) succeeded, (\\d+) pruned, (\\d+) failed \\((\\d+) in the study\\)$");

    @TempDir
    Path tmp;

    /** A finished command: its exit status, standard output and standard error. */
    record Run(int status, String out, String err) {}

    /**
     * Builds both programs in one reactor build, as each run.sh does for itself on first use (the same profile and
     * modules), so that the tests pay for Maven's start once; each run.sh then finds its program up to date.
     */
    @BeforeAll
    static void buildBoth(@TempDir Path logs) throws Exception {
        for (boolean offline : new boolean[] {true, false}) {
            List<String> cmd = new ArrayList<>(List.of(HOME.resolve("mvnw").toString(), "-B", "-ntp", "-q"));
            if (offline) {
                cmd.add("-o");
            }
            cmd.addAll(List.of("-Pstudy-examples", "-pl", "examples/study-java,examples/study-kotlin", "-am", "package", "-DskipTests",
                    "-Djazzer.skip"));
            Run r = run(cmd, logs, "build");
            if (r.status() == 0) {
                return;
            }
            if (!offline) {
                throw new AssertionError("the study examples did not build:\n" + r.out() + r.err());
            }
        }
    }

    @Test
    void theJavaExampleTunesXgboostPrunesOnBoostingRoundsAndGoesOnWithItsStoredStudy() throws Exception {
        Path storage = tmp.resolve("runs/xgboost");
        Run r = example("study-java", "--trials", "6", "--storage", storage.toString());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        int succeeded = assertSummary(r.out(), 6, 6);
        assertThat(succeeded).isPositive();
        Matcher best = Pattern.compile("(?m)^Best trial: #(\\d+), cross-validated log-loss (\\d+\\.\\d{4}), with \\{eta=[0-9.E-]+, max_depth=[1-8], "
                + "subsample=[0-9.E-]+, lambda=[0-9.E-]+, grow_policy=(depthwise|lossguide)\\}$").matcher(r.out());
        assertThat(best.find()).as(r.out()).isTrue();
        double bestLoss = Double.parseDouble(best.group(2));
        // predicting the share of benign tumours for every row scores about 0.66: the trees learned
        assertThat(bestLoss).isBetween(0.0, 0.2);

        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + storage.resolve("experiment.db"))) {
            assertThat(strings(db, "SELECT name || ' ' || maximize FROM experiment")).containsExactly("xgboost-breast-cancer 0");
            assertThat(count(db, "SELECT count(*) FROM trials")).isEqualTo(6);
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(succeeded);
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status NOT IN ('SUCCEEDED', 'EARLY_STOPPED')")).isZero();
            assertThat(Double.parseDouble(strings(db, "SELECT min(final_value) FROM trials").get(0))).isCloseTo(bestLoss, within(5e-5));
            // a log-loss every 20 of 200 rounds: 10 for a finished trial; Medianstop judges from the third on
            assertThat(strings(db, "SELECT DISTINCT (SELECT count(*) FROM metrics m WHERE m.job_id = t.job_id AND m.type = 'PERIODICAL')"
                    + " FROM trials t WHERE status = 'SUCCEEDED'")).containsExactly("10");
            for (String n : strings(db, "SELECT (SELECT count(*) FROM metrics m WHERE m.job_id = t.job_id AND m.type = 'PERIODICAL')"
                    + " FROM trials t WHERE status = 'EARLY_STOPPED'")) {
                assertThat(Integer.parseInt(n)).isBetween(3, 9);
            }
        }
        assertResults(storage, "xgboost-breast-cancer", 6);

        // Run again: nothing to build, and the stored study goes on.
        Run again = example("study-java", "--trials", "2", "--storage", storage.toString());
        assertThat(again.status()).as(again.out() + again.err()).isZero();
        assertThat(again.err()).doesNotContain("building");
        assertSummary(again.out(), 2, 8);
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + storage.resolve("experiment.db"))) {
            assertThat(count(db, "SELECT count(*) FROM trials")).isEqualTo(8);
        }
    }

    @Test
    void theKotlinExampleTunesTribuoAndPrunesAcrossFolds() throws Exception {
        Path storage = tmp.resolve("runs/tribuo");
        Run r = example("study-kotlin", "--trials", "6", "--storage", storage.toString());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        // the Percentile assessor judges nothing before 5 trials have completed
        int succeeded = assertSummary(r.out(), 6, 6);
        assertThat(succeeded).isGreaterThanOrEqualTo(5);
        Matcher best = Pattern.compile("(?m)^Best trial: #(\\d+), cross-validated accuracy (\\d\\.\\d{4}), with \\{optimiser=(adagrad|adam|sgd), "
                + "learning_rate=[0-9.E-]+, epochs=\\d+, minibatch=(1|8|32), loss=(log|hinge)\\}$").matcher(r.out());
        assertThat(best.find()).as(r.out()).isTrue();
        double bestAccuracy = Double.parseDouble(best.group(2));
        // the largest class is 40% of the wines: the linear model learned
        assertThat(bestAccuracy).isBetween(0.9, 1.0);

        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + storage.resolve("experiment.db"))) {
            assertThat(strings(db, "SELECT name || ' ' || maximize FROM experiment")).containsExactly("tribuo-wine 1");
            assertThat(count(db, "SELECT count(*) FROM trials")).isEqualTo(6);
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(succeeded);
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status NOT IN ('SUCCEEDED', 'EARLY_STOPPED')")).isZero();
            assertThat(Double.parseDouble(strings(db, "SELECT max(final_value) FROM trials").get(0))).isCloseTo(bestAccuracy, within(5e-5));
            // the mean accuracy so far after each of the 5 folds, the last one the trial's value
            assertThat(strings(db, "SELECT DISTINCT (SELECT count(*) FROM metrics m WHERE m.job_id = t.job_id AND m.type = 'PERIODICAL')"
                    + " FROM trials t WHERE status = 'SUCCEEDED'")).containsExactly("5");
            assertThat(count(db, "SELECT count(*) FROM trials t WHERE status = 'SUCCEEDED' AND final_value <> (SELECT value_number FROM metrics m"
                    + " WHERE m.job_id = t.job_id AND m.type = 'PERIODICAL' ORDER BY sequence DESC LIMIT 1)")).isZero();
        }
        assertResults(storage, "tribuo-wine", 6);
    }

    /** Checks the summary line and returns how many trials succeeded. */
    private static int assertSummary(String out, int run, int inStudy) {
        Matcher m = SUMMARY.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        int succeeded = Integer.parseInt(m.group(2));
        assertThat(Integer.parseInt(m.group(1))).as(out).isEqualTo(run);
        assertThat(succeeded + Integer.parseInt(m.group(3))).as(out).isEqualTo(run);
        assertThat(Integer.parseInt(m.group(4))).as(out).isZero();
        assertThat(Integer.parseInt(m.group(5))).as(out).isEqualTo(inStudy);
        return succeeded;
    }

    /** {@code tunekit results FOLDER} shows the study the example kept there. */
    private void assertResults(Path storage, String name, int trials) throws Exception {
        Path err = tmp.resolve("results.err");
        Process p = TunekitProcess.run(List.of("results", storage.toString()), tmp.resolve("experiments"), err, Map.of());
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out + Files.readString(err)).isZero();
        assertThat(out).contains("(" + name + ")").contains(trials + " trials:").contains("Best parameters");
    }

    /** Runs {@code examples/NAME/run.sh ARGS} from the repository's root, its Maven on this build's local repository. */
    private Run example(String name, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(HOME.resolve("examples").resolve(name).resolve("run.sh").toString());
        cmd.addAll(List.of(args));
        return run(cmd, tmp, name);
    }

    private static Run run(List<String> cmd, Path tmp, String name) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(HOME.toFile());
        pb.environment().remove("MAVEN_OPTS");
        pb.environment().remove("MAVEN_PROJECTBASEDIR");
        String repo = System.getProperty("maven.repo.local.tail");
        if (repo != null && !repo.isBlank()) {
            pb.environment().put("MAVEN_ARGS", "-Dmaven.repo.local=" + repo);
        } else {
            pb.environment().remove("MAVEN_ARGS");
        }
        Path out = Files.createTempFile(tmp, name, ".out");
        Path err = Files.createTempFile(tmp, name, ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError(cmd + " did not finish in 5 min:\n" + Files.readString(out) + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
