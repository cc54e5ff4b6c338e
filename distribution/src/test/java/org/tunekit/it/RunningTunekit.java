package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code tunekit run} or {@code tunekit view} process of the dashboard's browser tests, and what it printed. */
record RunningTunekit(Process process, ProcessOutput out, Path stderr) {
    static final Pattern EXPERIMENT = Pattern.compile("(?m)^Experiment ([a-z0-9]{8})");
    static final Pattern DASHBOARD = Pattern.compile("(?m)^Dashboard: (\\S+)");

    /** {@code tunekit ARGS} with experiments under {@code experiments} and standard error to {@code stderr}. */
    static RunningTunekit start(Path experiments, Path stderr, String... args) throws IOException {
        Process p = TunekitProcess.run(List.of(args), experiments, stderr, Map.of());
        return new RunningTunekit(p, new ProcessOutput(p), stderr);
    }

    /** Writes the trial script {@code script} (from the tests' resources) and {@code config} into {@code code}; gives the config's path. */
    static Path experimentConfig(Path code, String script, String config) throws IOException {
        Files.createDirectories(code);
        try (InputStream in = RunningTunekit.class.getResourceAsStream("dashboard/" + script)) {
            Files.copy(in, code.resolve(script));
        }
        return Files.writeString(code.resolve("config.yml"), config);
    }

    /** Runs an experiment to its end without a dashboard; gives its id. */
    static String runToEnd(Path experiments, Path stderr, Path config) throws Exception {
        RunningTunekit run = start(experiments, stderr, "run", config.toString(), "--no-ui");
        try {
            assertThat(run.process().waitFor(3, TimeUnit.MINUTES)).as("the experiment ends").isTrue();
            assertThat(run.process().exitValue()).as(run.out().text() + run.err()).isZero();
            return run.printed(EXPERIMENT);
        } finally {
            run.stop();
        }
    }

    String err() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Waits (a minute at most) for a line that {@code p} matches, and gives its first group. */
    String printed(Pattern p) throws InterruptedException {
        for (int i = 0; i < 1200; i++) {
            Matcher m = p.matcher(out.text());
            if (m.find()) {
                return m.group(1);
            }
            if (!process.isAlive() && i > 0) {
                break;
            }
            Thread.sleep(50);
        }
        Matcher m = p.matcher(out.text());
        if (m.find()) {
            return m.group(1);
        }
        return fail("tunekit printed no line like " + p + "; it printed:\n" + out.text() + "\nstderr:\n" + err());
    }

    /** Ends it (SIGTERM, then SIGKILL after 30 s) if it still runs. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
