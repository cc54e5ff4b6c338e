package org.tunekit.bench.multiobjective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;
import picocli.CommandLine;

class MultiObjectiveBenchmarkTest {

    /** Draws from the prior with a seeded generator (the built-in tuners are not on this module's test class path). */
    private static final class Sampler implements Tuner {
        private final java.util.SplittableRandom rng;
        private SearchSpace space;

        Sampler(ClassArguments args) {
            rng = new java.util.SplittableRandom(args.getLong("seed", 0));
        }

        @Override
        public void updateSearchSpace(SearchSpace s) {
            space = s;
        }

        @Override
        public Parameters generateParameters(long parameterId) {
            return space.sample(rng);
        }

        @Override
        public void receiveTrialResult(TrialResult result) {}
    }

    private static Parameters unit(int n, double first, double rest) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
            m.put("x" + i, i == 1 ? first : rest);
        }
        return Parameters.of(m);
    }

    @Test
    void theTrueFrontsHypervolumesAreTheAnalyticOnes() {
        Map<String, Problem> all = Problems.all();
        // ZDT1: 10 - integral of (1 - sqrt f1) + the strip past f1 = 1; ZDT2 likewise with 1 - f1^2
        assertThat(all.get("zdt1").trueHypervolume()).isCloseTo(10 - 1.0 / 3 + 1, within(1e-4));
        assertThat(all.get("zdt2").trueHypervolume()).isCloseTo(10 - 2.0 / 3 + 1, within(1e-4));
        assertThat(all.get("dtlz2").trueHypervolume()).isCloseTo(8 - Math.PI / 6, within(1e-12));
        // four objectives: the box [0, 2]^4 less the unit ball's positive orthant (pi^2 / 2 / 16)
        assertThat(all.get("dtlz2-4").trueHypervolume()).isCloseTo(16 - Math.PI * Math.PI / 32, within(1e-12));
        // ZDT3's disconnected front covers less than the whole curve f2 = 1 - sqrt(f1) - f1 sin(10 pi f1) would if it were monotone
        assertThat(all.get("zdt3").trueHypervolume()).isBetween(10.0, 11.5);
    }

    @Test
    void pointsWithGEqualOneLieOnTheFront() {
        Problem zdt1 = Problems.all().get("zdt1");
        double[] f = zdt1.evaluate(unit(Problems.ZDT_VARIABLES, 0.25, 0));
        assertThat(f[0]).isEqualTo(0.25);
        assertThat(f[1]).isCloseTo(0.5, within(1e-12));
        Problem dtlz2 = Problems.all().get("dtlz2");
        double[] g = dtlz2.evaluate(unit(12, 0.3, 0.5));
        assertThat(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).isCloseTo(1, within(1e-12));
        assertThat(g[2]).isCloseTo(Math.sin(0.3 * Math.PI / 2), within(1e-12));
        double[] g4 = Problems.all().get("dtlz2-4").evaluate(unit(13, 0.3, 0.5));
        assertThat(g4).hasSize(4);
        assertThat(g4[0] * g4[0] + g4[1] * g4[1] + g4[2] * g4[2] + g4[3] * g4[3]).isCloseTo(1, within(1e-12));
        assertThat(g4[3]).isCloseTo(Math.sin(0.3 * Math.PI / 2), within(1e-12));
        Problem mixed = Problems.all().get("mixed");
        double[] h = mixed.evaluate(Parameters.of(Map.of("model", "large", "depth", 8L, "lr", Math.pow(10, -2.5), "dropout", 0.2)));
        assertThat(h[0]).isCloseTo(0.25 + 0.3 / 8, within(1e-12));
        assertThat(h[1]).isEqualTo(1.0);
    }

    @Test
    void aRunMeasuresTheNormalisedHypervolumeEveryTenTrials() {
        Problem p = Problems.all().get("zdt2");
        Tuner t = new Sampler(ClassArguments.of(MultiObjectiveBenchmark.arguments(p, 3, Map.of())));
        MultiObjectiveBenchmark.Run run = MultiObjectiveBenchmark.run(p, "Sampler", t, 8, 3, 40);
        assertThat(run.error()).isNull();
        assertThat(run.hv()).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(run.hv()[i]).isBetween(0.0, 1.0);
            if (i > 0) {
                assertThat(run.hv()[i]).isGreaterThanOrEqualTo(run.hv()[i - 1]);
            }
        }
    }

    @Test
    void aSmallBenchmarkWritesItsFilesAndChecksAgainstRandom(@TempDir Path out) throws Exception {
        MultiObjectiveBenchmark.Config config = new MultiObjectiveBenchmark.Config(
                new LinkedHashMap<>(Map.of("Random", "Random")), Map.of(), List.of(Problems.all().get("mixed")), List.of(1), List.of(0L, 1L),
                100, 1, out);
        MultiObjectiveBenchmark.TunerFactory factory = (name, args) -> new Sampler(ClassArguments.of(args));
        List<Path> files = MultiObjectiveBenchmark.runAll(config, factory, new PrintWriter(new StringWriter()));
        assertThat(files).extracting(f -> f.getFileName().toString())
                .containsExactly("hypervolume.csv", "runs.csv", "summary.md", "hv-mixed.svg");
        assertThat(Files.readAllLines(out.resolve("hypervolume.csv"))).hasSize(1 + 2 * 10);
        assertThat(Files.readString(out.resolve("summary.md"))).contains("## mixed").contains("| Random |");
    }

    @Test
    void badOptionsAreNamed() {
        BenchMoCommand c = new BenchMoCommand();
        new CommandLine(c).parseArgs("--problems", "zdt9");
        assertThatThrownBy(c::config).hasMessageContaining("unknown problem 'zdt9'");
        BenchMoCommand d = new BenchMoCommand();
        new CommandLine(d).parseArgs("--trials", "15");
        assertThatThrownBy(d::config).hasMessageContaining("--trials must be a positive multiple of 10");
        BenchMoCommand e = new BenchMoCommand();
        new CommandLine(e).parseArgs("--modes", "parallel");
        assertThatThrownBy(e::config).hasMessageContaining("unknown mode 'parallel'");
    }
}
