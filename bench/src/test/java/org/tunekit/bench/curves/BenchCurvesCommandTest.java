package org.tunekit.bench.curves;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.bench.testing.Commands;
import org.tunekit.bench.testing.SamplerPlugin;

class BenchCurvesCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    static Path pluginDir;

    @BeforeAll
    static void packPlugin() throws Exception {
        SamplerPlugin.pack(pluginDir);
    }

    private int run(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--plugins";
        all[args.length + 1] = pluginDir.toString();
        return Commands.execute(new BenchCurvesCommand(), all, out, err);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsTheBaselineAndSaysWhichAlgorithmsAreMissing(@TempDir Path dir) throws Exception {
        int status = run("--tuner", "BenchSampler", "--configs", "none,Medianstop,Hyperband", "--seeds", "0..1",
                "--trials", "4", "--concurrency", "2", "--threads", "1", "--out", dir.toString());
        assertThat(status).as(err()).isZero();
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(stdout).contains("| none | 200 [200, 200] | 100 [100, 100] |")
                .contains("note: assessor 'Medianstop' is not present: Medianstop skipped")
                .contains("note: advisor 'Hyperband' is not present (no built-in or plugin provides it): Hyperband skipped")
                .contains("Suite: late-settling (slow starters overtake up to 30 epochs in)")
                .contains("2 runs, 0 failed; wrote:");
        assertThat(err()).contains("bench-curves: 2/2 runs (none done)");
        assertThat(Files.readAllLines(dir.resolve("runs.csv"))).hasSize(3);
        assertThat(dir.resolve("summary.md")).exists();
        assertThat(dir.resolve("regret-vs-epochs.svg")).exists();
    }

    @Test
    void anUnknownConfigurationStopsBeforeAnyRun(@TempDir Path dir) {
        assertThat(run("--tuner", "BenchSampler", "--configs", "none,Earlystop", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown configuration 'Earlystop'; available: none, Medianstop, Curvefitting");
        assertThat(dir.resolve("runs.csv")).doesNotExist();
        assertThat(run("--tuner", "BenchSampler", "--configs", "Patience@10", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("configuration 'Patience@10': Patience has no argument for where it starts judging");
        assertThat(run("--tuner", "BenchSampler", "--configs", "Medianstop@x", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("configuration 'Medianstop@x': the first judgement is an epoch (a whole number) or 'auto', got 'x'");
        assertThat(run("--tuner", "BenchSampler", "--configs", "Curvefitting@auto", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("configuration 'Curvefitting@auto': Curvefitting cannot find where to start judging itself");
        assertThat(run("--tuner", "BenchSampler", "--configs", "Medianstop@0", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("the first judgement must be at an epoch in [1, 50], got 0");
        assertThat(run("--tuner", "BenchSampler", "--configs", "none", "--suite", "fast", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("tunekit-bench bench-curves: unknown suite 'fast'; available: late-settling, early-settling");
        assertThat(dir.resolve("runs.csv")).doesNotExist();
    }

    @Test
    void configArgumentsMustNameAConfigurationAndBeAnObject(@TempDir Path dir) {
        assertThat(run("--tuner", "BenchSampler", "--configs", "none", "--config-args", "Medianstop={}",
                "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("--config-args names configuration 'Medianstop', which is not among [none]");
        assertThat(run("--tuner", "BenchSampler", "--configs", "none", "--config-args", "none=[1]",
                "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("--config-args of none must be a JSON object");
    }
}
