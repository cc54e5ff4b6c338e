package org.tunekit.bench;

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
import org.tunekit.bench.quality.BenchCommand;
import org.tunekit.bench.quality.Suite;
import org.tunekit.demo.TestFunction;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * The time of one suggestion with {@code n} results already observed, as
 * {@code ../shared/benchmarks/nni-anchors.md} measures NNI's TPE: the tuner is given its space and
 * {@code n} results (random points of the prior with the function's values, as imported data), then
 * each measured call asks for one parameter set and ends that trial as failed, so the observed set
 * stays the same from call to call. With {@code pending} above 0 that many suggestions are asked
 * for first and left without results, as the other trials of a batch or of parallel trials are,
 * so each measured suggestion is made with them pending (TuRBO's kriging believer, TPE's liar).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SuggestionBenchmark {

    /** The tuner, by its provider name. */
    @Param({"TPE", "GPTuner", "SMAC", "CMAES", "TuRBO"})
    public String tuner;

    /**
     * The space: {@code hartmann6} (6 uniform) or {@code mixed} (loguniform, two choices, randint,
     * quniform), or any other function of either suite by name, such as {@code levy20} (20 uniform).
     */
    @Param({"hartmann6", "mixed"})
    public String space;

    /** Results observed before the measured suggestions. */
    @Param({"100", "1000", "5000"})
    public int n;

    /** Suggestions left pending while the measured ones are made: 7 is the rest of a batch of 8. */
    @Param({"0"})
    public int pending;

    /**
     * Class arguments added to {@code optimize_mode} and {@code seed}, as a JSON object: e.g.
     * {@code {"failure_tolerance": 1000000}} keeps TuRBO's trust region from shrinking on the random results,
     * so that its model holds all of them (its costliest suggestion) instead of a new region's few.
     */
    @Param({"{}"})
    public String arguments;

    private Tuner instance;
    private long nextId;

    /** Creates the tuner and loads it with {@code n} results. */
    @Setup(Level.Trial)
    public void load() {
        TestFunction objective = Suite.everything().get(space);
        SearchSpace s = SearchSpace.parse(objective.space());
        Map<String, Object> args = new LinkedHashMap<>(Map.of("optimize_mode", "minimize", "seed", 1));
        args.putAll(BenchCommand.jsonObject(arguments, "the benchmark's arguments"));
        instance = create(tuner, ClassArguments.of(args));
        instance.updateSearchSpace(s);
        SplittableRandom rng = new SplittableRandom(42);
        List<ImportedTrial> data = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Parameters p = s.sample(rng);
            data.add(new ImportedTrial(p, Metric.of(objective.evaluate(p))));
        }
        instance.importData(data);
        for (int i = 0; i < pending; i++) {
            try {
                instance.generateParameters(nextId++);
            } catch (NoMoreTrialsException e) {
                throw new IllegalStateException(tuner + " has no parameters left for the pending suggestions", e);
            }
        }
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
        List<String> found = new ArrayList<>();
        for (TunerProvider p : ServiceLoader.load(TunerProvider.class)) {
            if (p.name().equalsIgnoreCase(name)) {
                return p.create(arguments);
            }
            found.add(p.name());
        }
        throw new IllegalArgumentException("no tuner '" + name + "'; found " + found);
    }
}
