package org.tunekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tunekit.assessors.curvefitting.CurvefittingAssessorProvider;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;

/**
 * One {@code Curvefitting} judgement of a 50-point learning curve (a noisy power law, extrapolated to
 * epoch 100, against a completed trial's final value). {@code cold}: a trial judged for the first time,
 * every model fitted from its default starting points. {@code warm}: the same trial judged again, each
 * model starting from its previous fit, which is what a running trial costs at each new value.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CurvefittingBenchmark {
    private Assessor assessor;
    private List<Metric> history;
    private long trial;

    /** A fresh assessor that has seen one completed trial, and the history to judge. */
    @Setup(Level.Trial)
    public void setUp() {
        assessor = new CurvefittingAssessorProvider().create(ClassArguments.of(Map.of("epoch_num", 100)));
        assessor.assessTrial("completed", List.of(Metric.of(0.9)));
        assessor.trialEnd("completed", true);
        SplittableRandom random = new SplittableRandom(42);
        history = new ArrayList<>();
        for (int x = 1; x <= 50; x++) {
            double noise = 0.005 * (random.nextDouble() - 0.5);
            history.add(Metric.of(0.92 - 0.55 * Math.pow(x, -0.6) + noise));
        }
        assessor.assessTrial("warm", history);
    }

    /** A trial's first judgement: no warm start. */
    @Benchmark
    public AssessResult cold() {
        String id = "cold-" + trial++;
        AssessResult verdict = assessor.assessTrial(id, history);
        assessor.trialEnd(id, false);
        return verdict;
    }

    /** A judgement of a trial judged before: warm starts from its previous fits. */
    @Benchmark
    public AssessResult warm() {
        return assessor.assessTrial("warm", history);
    }
}
