package org.tunekit.bench;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tunekit.dispatcher.protocol.CommandType;

/**
 * Start-up as the manager sees it: from spawning {@code tunekit dispatch} (with {@code IN} written
 * at once) to reading its {@code ID} reply. Each measurement is one new process.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2)
@Measurement(iterations = 13)
public class StartupBenchmark {
    private DispatcherProcess dispatcher;

    /** Spawn, {@code IN}, wait for {@code ID}. */
    @Benchmark
    public Object spawnToInitialized() throws IOException {
        dispatcher = DispatcherProcess.start(Map.of("tuner", Map.of("name", "Random", "classArgs", Map.of("seed", 0))));
        dispatcher.send(CommandType.INITIALIZE, DispatcherProcess.SPACE);
        dispatcher.flush();
        return dispatcher.receive(CommandType.INITIALIZED);
    }

    /** Ends the process outside the measured time. */
    @TearDown(Level.Invocation)
    public void stop() throws IOException {
        if (dispatcher != null) {
            dispatcher.close();
            dispatcher = null;
        }
    }
}
