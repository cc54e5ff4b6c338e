package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.results.TrialStatus;

/**
 * Experiments written straight into a store, without a run, for the tests of those who read stores
 * (the dashboard): a store as {@code tunekit run} makes it, then trials, metrics and requests as a
 * runner would record them.
 */
public final class TestExperiments implements AutoCloseable {
    private final ExperimentStore store;
    private final Path folder;

    private TestExperiments(ExperimentStore store, Path folder) {
        this.store = store;
        this.folder = folder;
    }

    /**
     * Creates experiment {@code id} in {@code root/id} from a config's text (YAML; its trial command is never run).
     */
    public static TestExperiments create(Path root, String id, String configYaml, Instant started) throws IOException {
        Path folder = Files.createDirectories(root.resolve(id));
        Path config = folder.resolve("config.yml");
        Files.writeString(config, configYaml);
        ExperimentSpec spec = ExperimentSpec.load(config);
        return new TestExperiments(ExperimentStore.create(folder, id, spec, Map.of(), started), folder);
    }

    public Path folder() {
        return folder;
    }

    /** A trial that started with these parameters. */
    public void started(int sequence, String jobId, Map<String, Object> parameters, Instant at) {
        String record = JsonCodec.write(Map.of("parameter_id", (long) sequence, "parameter_source", "algorithm", "parameters", parameters));
        store.trialStarted(sequence, jobId, sequence, record, at);
    }

    /** A metric of a trial: {@code value} a number or a map of them. */
    public void metric(String jobId, long parameterId, boolean last, int sequence, Object value, double number, Instant at) {
        store.metric(jobId, MetricStream.LIVE, parameterId, last ? "FINAL" : "PERIODICAL", sequence, JsonCodec.write(value), number, at);
    }

    public void ended(String jobId, TrialStatus status, Integer exitCode, String message, Instant at) {
        store.trialEnded(jobId, status, exitCode, message, at);
    }

    public void status(String status, Instant ended) {
        store.setStatus(status, ended);
    }

    /** The requests made so far, as (id, kind, payload, state). */
    public List<Object[]> requests() {
        return store.requests(null).stream().map(r -> new Object[] {r.id(), r.kind(), r.payload(), r.state()}).toList();
    }

    /** Answers a request as a runner would. */
    public void answer(long requestId, boolean done, String answer) {
        store.answerRequest(requestId, done ? "DONE" : "REFUSED", answer, Instant.now());
    }

    /**
     * Adds {@code count} ended trials in one transaction (a store of many trials, quickly): parameters from
     * {@code parameters(i)}, value {@code value(i)}, each trial one second long.
     */
    public void bulk(int from, int count, java.util.function.IntFunction<Map<String, Object>> parameters, java.util.function.IntToDoubleFunction value,
                     Instant start) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve(ExperimentStore.FILE))) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO trials (job_id, sequence, parameter_id, parameter_record, status, started_ms,"
                    + " ended_ms, exit_code, final_metric, final_value) VALUES (?, ?, ?, ?, 'SUCCEEDED', ?, ?, 0, ?, ?)")) {
                for (int i = from; i < from + count; i++) {
                    double v = value.applyAsDouble(i);
                    p.setString(1, "t" + i);
                    p.setInt(2, i);
                    p.setLong(3, i);
                    p.setString(4, JsonCodec.write(Map.of("parameter_id", (long) i, "parameter_source", "algorithm", "parameters", parameters.apply(i))));
                    p.setLong(5, start.plusSeconds(i).toEpochMilli());
                    p.setLong(6, start.plusSeconds(i + 1).toEpochMilli());
                    p.setString(7, Double.toString(v));
                    p.setDouble(8, v);
                    p.addBatch();
                }
                p.executeBatch();
            }
            c.commit();
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
