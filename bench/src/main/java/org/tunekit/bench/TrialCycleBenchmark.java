package org.tunekit.bench;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tunekit.dispatcher.protocol.CommandType;

/**
 * One trial cycle through the real dispatcher process over a real pipe, as
 * {@code ../shared/benchmarks/nni-anchors.md} measures NNI's: {@code GE 1}, optionally five
 * {@code ME PERIODICAL}, {@code ME FINAL}, {@code EN SUCCEEDED}, with the {@code Random} tuner (and
 * {@code Medianstop} when there are intermediate results).
 *
 * <ul>
 *   <li>{@link #closedLoop}: the manager waits for each {@code TR} before it reports the trial (one trial slot);</li>
 *   <li>{@link #openLoop}: the manager writes a pre-built stream of {@value #STREAM} cycles while it reads the replies.</li>
 * </ul>
 * The process lives for a whole fork, so ids and the assessor's history grow as they would in a long experiment.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TrialCycleBenchmark {
    static final int STREAM = 2000;

    /** Intermediate results per trial: 0 (tuner only) or 5 (with the Medianstop assessor). */
    @Param({"0", "5"})
    public int periodical;

    private DispatcherProcess dispatcher;
    private ExecutorService writer;
    private long nextId;

    /** Starts the dispatcher and initialises it. */
    @Setup(Level.Trial)
    public void start() throws IOException {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tuner", Map.of("name", "Random", "classArgs", Map.of("seed", 0)));
        if (periodical > 0) {
            config.put("assessor", Map.of("name", "Medianstop", "classArgs", Map.of("optimize_mode", "minimize")));
        }
        dispatcher = DispatcherProcess.start(config);
        dispatcher.send(CommandType.INITIALIZE, DispatcherProcess.SPACE);
        dispatcher.flush();
        dispatcher.receive(CommandType.INITIALIZED);
        writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "manager-writer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Terminates the dispatcher. */
    @TearDown(Level.Trial)
    public void stop() throws IOException {
        writer.shutdownNow();
        dispatcher.close();
    }

    /** One trial slot: ask, wait for the parameters, report. */
    @Benchmark
    public long closedLoop() throws IOException {
        dispatcher.send(CommandType.REQUEST_TRIAL_JOBS, "1");
        dispatcher.flush();
        long id = DispatcherProcess.parameterId(dispatcher.receive(CommandType.NEW_TRIAL_JOB));
        reportTrial(id);
        dispatcher.flush();
        nextId = id + 1;
        return id;
    }

    /** A pre-built stream of cycles, written while the replies are read. */
    @Benchmark
    @OperationsPerInvocation(STREAM)
    public long openLoop() throws Exception {
        long first = nextId;
        Future<?> written = writer.submit(() -> {
            for (long id = first; id < first + STREAM; id++) {
                dispatcher.send(CommandType.REQUEST_TRIAL_JOBS, "1");
                reportTrial(id);
            }
            dispatcher.flush();
            return null;
        });
        long last = -1;
        for (int i = 0; i < STREAM; i++) {
            last = DispatcherProcess.parameterId(dispatcher.receive(CommandType.NEW_TRIAL_JOB));
        }
        written.get();
        nextId = first + STREAM;
        return last;
    }

    private void reportTrial(long id) throws IOException {
        // a learning curve that falls towards a value that depends on the trial
        double target = (id * 7919 % 1000) / 1000.0;
        for (int s = 0; s < periodical; s++) {
            dispatcher.send(CommandType.REPORT_METRIC_DATA, DispatcherProcess.periodicalMetric(id, s, target + 1.0 / (s + 1)));
        }
        dispatcher.send(CommandType.REPORT_METRIC_DATA, DispatcherProcess.finalMetric(id, target));
        dispatcher.send(CommandType.TRIAL_END, DispatcherProcess.trialEnd(id));
    }

}
