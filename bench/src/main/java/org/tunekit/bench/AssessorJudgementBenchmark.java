package org.tunekit.bench;

import java.util.ArrayList;
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
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * What one intermediate result costs an assessor that compares trials: the judgement of a running
 * trial's newest value (its history one value longer than at the last call), after {@code completed}
 * trials of 50 values each have ended successfully. A running trial is ended (unsuccessfully, so the
 * field stays the same) and replaced after 50 values. The dispatcher makes one such call per
 * {@code PERIODICAL} result.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class AssessorJudgementBenchmark {
    private static final int STEPS = 50;

    /** The assessor's catalog name. */
    @Param({"Medianstop", "Percentile", "SuccessiveHalving"})
    public String assessor;

    /** How many trials have completed. */
    @Param({"100", "10000"})
    public int completed;

    private Assessor instance;
    private List<List<Metric>> prefixes;
    private int step;
    private long trial;

    /** The assessor after {@code completed} successful trials, and the prefixes of the running trials' history. */
    @Setup(Level.Trial)
    public void setUp() {
        AssessorProvider provider = ServiceLoader.load(AssessorProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(assessor)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no assessor named " + assessor));
        instance = provider.create(ClassArguments.of(Map.of("optimize_mode", "minimize")));
        SplittableRandom random = new SplittableRandom(7);
        for (int t = 0; t < completed; t++) {
            List<Metric> history = curve(random);
            String id = "completed-" + t;
            for (int s = 1; s <= STEPS; s++) {
                instance.assessTrial(id, history.subList(0, s));
            }
            instance.trialEnd(id, true);
        }
        List<Metric> running = curve(random);
        prefixes = new ArrayList<>();
        for (int s = 1; s <= STEPS; s++) {
            prefixes.add(running.subList(0, s));
        }
    }

    private static List<Metric> curve(SplittableRandom random) {
        double rate = 0.05 + 0.3 * random.nextDouble();
        double last = 0.05 + 0.3 * random.nextDouble();
        List<Metric> values = new ArrayList<>(STEPS);
        for (int s = 1; s <= STEPS; s++) {
            values.add(Metric.of(last + (0.9 - last) * Math.exp(-rate * s) + 0.01 * (random.nextDouble() - 0.5)));
        }
        return values;
    }

    /** One new value of a running trial, judged. */
    @Benchmark
    public AssessResult judgeNewValue() {
        String id = "running-" + trial;
        AssessResult verdict = instance.assessTrial(id, prefixes.get(step));
        if (++step == STEPS) {
            instance.trialEnd(id, false);
            step = 0;
            trial++;
        }
        return verdict;
    }
}
