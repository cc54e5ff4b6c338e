package org.tunekit.dispatcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.spi.TunerProvider;
import picocli.CommandLine;

class BenchCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    static Path pluginDir;

    /**
     * Packs {@link BenchSamplerProvider} into a plugin jar, so that the benchmark finds it the way it
     * finds any third-party tuner (and no other test's catalog sees it).
     */
    @BeforeAll
    static void packPlugin() throws Exception {
        packSampler(pluginDir);
    }

    /** Writes {@code sampler.jar}, a plugin jar holding {@link BenchSamplerProvider}, into {@code pluginDir}. */
    static void packSampler(Path pluginDir) throws Exception {
        Path classes = Path.of(BenchSamplerProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pkg = BenchSamplerProvider.class.getPackageName().replace('.', '/');
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(pluginDir.resolve("sampler.jar")));
                var files = Files.list(classes.resolve(pkg))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("BenchSamplerProvider")).toList()) {
                jar.putNextEntry(new JarEntry(pkg + "/" + f.getFileName()));
                jar.write(Files.readAllBytes(f));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("META-INF/services/" + TunerProvider.class.getName()));
            jar.write((BenchSamplerProvider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }

    private int run(String... args) {
        args = concat(args, "--plugins", pluginDir.toString());
        return execute(new BenchCommand(), args, out, err);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsACatalogTunerEndToEndAndTheSameSeedsGiveTheSameCsv(@TempDir Path dir) throws Exception {
        String[] common = {"--tuners", "BenchSampler,other=bench_sampler", "--tuner-args", "other={\"offset\": 1000}",
            "--functions", "branin,mixed", "--seeds", "0..2", "--trials", "25"};
        assertThat(run(concat(common, "--out", dir.resolve("a").toString(), "--threads", "2"))).as(err()).isZero();
        assertThat(run(concat(common, "--out", dir.resolve("b").toString(), "--threads", "1"))).as(err()).isZero();
        List<String> a = Files.readAllLines(dir.resolve("a/regret.csv"));
        assertThat(a).hasSize(1 + 2 * 2 * 2 * 3 * 25).isEqualTo(Files.readAllLines(dir.resolve("b/regret.csv")));
        assertThat(a).anyMatch(l -> l.startsWith("other,mixed,batch,2,25,"));
        assertThat(err()).contains("bench: 24 runs").contains("bench: 24/24 runs (100.0%)");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("24 runs, 0 failed; wrote:").contains("summary.md");
        assertThat(Files.readString(dir.resolve("a/summary.md"))).contains("| mixed | other | 3 |").contains("*NNI tpe*");
    }

    @Test
    void anUnknownTunerStopsBeforeAnyRun(@TempDir Path dir) {
        assertThat(run("--tuners", "NoSuchTuner", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown tuner 'NoSuchTuner'; available tuners: BenchSampler");
        assertThat(dir.resolve("regret.csv")).doesNotExist();
    }

    @Test
    void aTunerRejectingItsArgumentsStopsBeforeAnyRun(@TempDir Path dir) {
        assertThat(run("--tuners", "BenchSampler", "--tuner-args", "BenchSampler={\"seed\": null}", "--out", dir.toString()))
                .isEqualTo(2);
        assertThat(err()).contains("'seed' is required here");
    }

    @Test
    void badOptionsAreNamed(@TempDir Path dir) {
        assertThat(run("--tuners", "BenchSampler", "--functions", "rosenbrock", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown function 'rosenbrock'; available: branin, hartmann6, ackley5, mixed, nested");
        assertThat(run("--tuners", "BenchSampler", "--modes", "parallel", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown mode 'parallel'");
        assertThat(run("--tuners", "BenchSampler", "--tuner-args", "TPE={}", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("--tuner-args names tuner 'TPE', which is not among the tuners [BenchSampler]");
    }

    @Test
    void seedListsAndTunerArguments() {
        assertThat(BenchCommand.parseSeeds("0..3,7, 9..10")).containsExactly(0L, 1L, 2L, 3L, 7L, 9L, 10L);
        assertThatThrownBy(() -> BenchCommand.parseSeeds("0..x")).hasMessageContaining("'0..x' is not a number or a range");
        assertThatThrownBy(() -> BenchCommand.parseSeeds("5..1")).hasMessageContaining("must go upwards");
        assertThat(BenchCommand.tunerArguments(List.of("TPE={\"n_startup_jobs\": 10}", "TPE={\"seed\": null}")))
                .containsExactly(Map.entry("TPE", new java.util.LinkedHashMap<>(java.util.Collections.<String, Object>emptyMap()) {
                    {
                        put("n_startup_jobs", 10L);
                        put("seed", null);
                    }
                }));
        assertThatThrownBy(() -> BenchCommand.tunerArguments(List.of("TPE=[1]"))).hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> BenchCommand.tunerArguments(List.of("TPE={"))).hasMessageContaining("invalid JSON in --tuner-args of TPE");
    }

    /** Runs {@code command} as the command line would, with its output and errors going to {@code out} and {@code err}. */
    static int execute(Object command, String[] args, ByteArrayOutputStream out, ByteArrayOutputStream err) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        return cl.execute(args);
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
