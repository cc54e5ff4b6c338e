package org.tunekit.bench.multiobjective;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * The time of one suggestion of a multi-objective tuner with {@code n} results observed, as
 * {@code SuggestionBenchmark} measures the single-objective ones: the tuner gets the problem's space
 * and {@code n} random points of it with their objective values (as imported metric objects), then
 * each measured call asks for one parameter set and ends that trial as failed, so the observed set
 * stays the same from call to call.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MultiObjectiveSuggestionBenchmark {

    /** The tuner, by its provider name. */
    @Param({"MOTPE", "NSGA2"})
    public String tuner;

    /**
     * The problem of {@code bench-mo}: {@code zdt1} (10 uniform, 2 objectives), {@code dtlz2} (12 uniform, 3),
     * {@code dtlz2-4} (13 uniform, 4), {@code mixed}.
     */
    @Param({"zdt1", "dtlz2", "dtlz2-4", "mixed"})
    public String problem;

    /** Results observed before the measured suggestions. */
    @Param({"1000"})
    public int n;

    private Tuner instance;
    private long nextId;

    /** Creates the tuner and loads it with {@code n} results. */
    @Setup(Level.Trial)
    public void load() {
        Problem p = Problems.all().get(problem);
        instance = create(tuner, ClassArguments.of(MultiObjectiveBenchmark.arguments(p, 1, Map.of())));
        instance.updateSearchSpace(p.space());
        SplittableRandom rng = new SplittableRandom(42);
        List<ImportedTrial> data = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Parameters x = p.space().sample(rng);
            double[] f = p.evaluate(x);
            Map<String, Object> metric = new LinkedHashMap<>();
            metric.put("default", f[0]);
            for (int k = 0; k < f.length; k++) {
                metric.put(p.metrics().get(k), f[k]);
            }
            data.add(new ImportedTrial(x, Metric.fromReported(metric)));
        }
        instance.importData(data);
    }

    /** One suggestion. */
    @Benchmark
    public Parameters suggest() throws NoMoreTrialsException {
        long id = nextId++;
        Parameters p = instance.generateParameters(id);
        instance.trialEnd(id, false);
        return p;
    }

    static Tuner create(String name, ClassArguments arguments) {
        for (TunerProvider p : ServiceLoader.load(TunerProvider.class)) {
            if (p.name().equalsIgnoreCase(name)) {
                return p.create(arguments);
            }
        }
        throw new IllegalArgumentException("no tuner '" + name + "'");
    }
}
