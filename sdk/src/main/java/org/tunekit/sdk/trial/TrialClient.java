package org.tunekit.sdk.trial;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;

/**
 * A trial's side of an experiment: gets the parameters the trial is to evaluate from the manager that
 * started it, and reports the trial's results back. It speaks the protocols of NNI's own trial
 * library, so a Java trial runs under NNI's managers and under Tunekit's local runner alike.
 *
 * <pre>{@code
 * TrialClient trial = TrialClient.fromEnvironment();
 * Parameters p = trial.parameters();
 * for (int epoch = 0; epoch < 10; epoch++) {
 *     trial.reportIntermediate(train(p, epoch));
 * }
 * trial.reportFinal(evaluate(p));
 * }</pre>
 *
 * <p>The environment chooses the channel, as it does for NNI's trial library:
 * <ul>
 * <li>{@code NNI_TRIAL_COMMAND_CHANNEL} is an {@code http://} URL: NNI 3's HTTP channel;
 * <li>otherwise {@code NNI_PLATFORM} is set (e.g. {@code local}): the file channel of NNI 2, which
 *     NNI 3 keeps for its legacy platforms ({@code NNI_SYS_DIR} holds the files);
 * <li>otherwise standalone: no manager. The parameters are the JSON object in
 *     {@code TUNEKIT_TRIAL_PARAMETERS} (none when unset) and results are printed on standard error,
 *     so that a trial can be run by hand.
 * </ul>
 *
 * <p>A metric is a number, or a map of JSON values (String, Boolean, Number, List, Map, null) whose
 * {@code "default"} key holds the number the tuner optimises; the other keys are shown to users. A
 * number must be finite or NaN. Intermediate results are numbered 0, 1, 2, ... in the order reported.
 *
 * <p>Results may be reported before the parameters were obtained; they then name no parameter id
 * ({@code null} on the wire), which a manager may not attribute to the parameters. Get the parameters
 * first.
 *
 * <p>Safe for use from several threads. Failures of the channel are {@link UncheckedIOException}s
 * naming the channel and what happened. Only waiting for parameters may take indefinitely long.
 */
public final class TrialClient {
    private final TrialEnvironment env;
    private final TrialChannel channel;
    private final String trialJobId;

    private final Object parameterLock = new Object();
    private volatile ParameterRecord current;
    /** How many parameter sets have been obtained; guarded by {@link #parameterLock}. */
    private int obtained;

    private final Object reportLock = new Object();
    /** The next intermediate result's sequence number; guarded by {@link #reportLock}. */
    private int nextSequence;

    private TrialClient(TrialEnvironment env, TrialChannel channel, String trialJobId) {
        this.env = env;
        this.channel = channel;
        this.trialJobId = trialJobId;
    }

    /**
     * A client on the channel that this process's environment variables name.
     *
     * @throws IllegalStateException    when the environment names a manager but lacks what is needed to reach it
     * @throws IllegalArgumentException when standalone and {@code TUNEKIT_TRIAL_PARAMETERS} is not a JSON object
     * @throws UncheckedIOException     when the file channel's directories cannot be created
     */
    public static TrialClient fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * A client on the channel that the given environment variables name; for tests and for launchers
     * that run a trial in-process. Empty values count as unset.
     *
     * @param environment the variables ({@code NNI_TRIAL_COMMAND_CHANNEL}, {@code NNI_PLATFORM},
     *                    {@code NNI_TRIAL_JOB_ID}, {@code NNI_SYS_DIR}, {@code NNI_OUTPUT_DIR}, ...)
     * @throws IllegalStateException    when the environment names a manager but lacks what is needed to reach it
     * @throws IllegalArgumentException when standalone and {@code TUNEKIT_TRIAL_PARAMETERS} is not a JSON object
     * @throws UncheckedIOException     when the file channel's directories cannot be created
     */
    public static TrialClient fromEnvironment(Map<String, String> environment) {
        return create(environment, System.out, System.err);
    }

    /** As {@link #fromEnvironment(Map)}, with the streams that stand for standard output and error. */
    static TrialClient create(Map<String, String> environment, PrintStream stdout, PrintStream stderr) {
        TrialEnvironment env = TrialEnvironment.of(Objects.requireNonNull(environment, "environment"));
        return switch (env.kind()) {
            case HTTP -> new TrialClient(env, new HttpTrialChannel(env.channelUrl()), env.requireTrialJobId());
            case FILE -> new TrialClient(env, new FileTrialChannel(env, stdout), env.requireTrialJobId());
            case STANDALONE -> new TrialClient(env, new StandaloneTrialChannel(env, stderr),
                    env.trialJobId() == null ? "STANDALONE" : env.trialJobId());
        };
    }

    /**
     * This trial's parameters. The first call asks the manager for them and waits until they come,
     * however long that is; later calls return the same parameters (or, after
     * {@link #nextParameters()}, the latest set).
     *
     * @throws UncheckedIOException  when the channel fails, or the manager has closed it, before parameters came
     * @throws IllegalStateException when the manager has no parameters for this trial
     */
    public Parameters parameters() {
        ParameterRecord record = current;
        if (record != null) {
            return record.parameters();
        }
        synchronized (parameterLock) {
            if (current == null) {
                try {
                    if (obtain().isEmpty()) {
                        throw new IllegalStateException("the manager (" + channel.describe() + ") has no parameters for this trial");
                    }
                } catch (TrialChannel.ChannelClosedException e) {
                    throw new UncheckedIOException("no parameters will come: " + e.getMessage(), e);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot get this trial's parameters: " + e.getMessage(), e);
                }
            }
            return current.parameters();
        }
    }

    /**
     * Asks the manager for another parameter set and waits for it, for a trial that evaluates
     * several in turn (NNI's multi-phase trials); the first call, when {@link #parameters()} has not
     * been called, asks for the first set. Afterwards {@link #parameters()} and {@link #parameterId()}
     * give the new set, and results are reported for it.
     *
     * @return the set, or empty when the manager has none: standalone after the first set, on the
     *         file channel after the first set unless {@code MULTI_PHASE} is {@code true}, and on the
     *         HTTP channel once the manager has closed it (an HTTP manager that does not hand out
     *         further sets leaves this waiting until it closes the channel or ends the trial)
     * @throws UncheckedIOException when the channel fails
     */
    public Optional<Parameters> nextParameters() {
        synchronized (parameterLock) {
            try {
                return obtain().map(ParameterRecord::parameters);
            } catch (TrialChannel.ChannelClosedException e) {
                return Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot get the next parameters: " + e.getMessage(), e);
            }
        }
    }

    private Optional<ParameterRecord> obtain() throws IOException {
        Optional<ParameterRecord> record = channel.requestParameters(obtained);
        if (record.isPresent()) {
            current = record.get();
            obtained++;
        }
        return record;
    }

    /**
     * Reports an intermediate result, numbered after the ones before it (from 0).
     *
     * @param metric the number the tuner (and assessor) judge, finite or NaN
     * @throws IllegalArgumentException when the metric is infinite
     * @throws UncheckedIOException     when the channel fails
     */
    public void reportIntermediate(double metric) {
        report(MetricMessage.Type.PERIODICAL, checked(metric));
    }

    /**
     * Reports an intermediate result with several metrics, numbered after the ones before it (from 0).
     *
     * @param metrics JSON values by name; {@code "default"} holds the number the tuner judges, finite or NaN
     * @throws IllegalArgumentException when {@code "default"} is missing or not such a number, or a value is not JSON
     * @throws UncheckedIOException     when the channel fails
     */
    public void reportIntermediate(Map<String, ?> metrics) {
        report(MetricMessage.Type.PERIODICAL, checked(metrics));
    }

    /**
     * Reports the trial's final result, which the tuner learns from. Report it once, at the end.
     *
     * @param metric the number the tuner optimises, finite or NaN
     * @throws IllegalArgumentException when the metric is infinite
     * @throws UncheckedIOException     when the channel fails
     */
    public void reportFinal(double metric) {
        report(MetricMessage.Type.FINAL, checked(metric));
    }

    /**
     * Reports the trial's final result with several metrics. Report it once, at the end.
     *
     * @param metrics JSON values by name; {@code "default"} holds the number the tuner optimises, finite or NaN
     * @throws IllegalArgumentException when {@code "default"} is missing or not such a number, or a value is not JSON
     * @throws UncheckedIOException     when the channel fails
     */
    public void reportFinal(Map<String, ?> metrics) {
        report(MetricMessage.Type.FINAL, checked(metrics));
    }

    /** The manager's id of this trial ({@code NNI_TRIAL_JOB_ID}); {@code "STANDALONE"} when standalone and unset. */
    public String trialJobId() {
        return trialJobId;
    }

    /**
     * The id of the parameter set this trial evaluates; empty before the parameters were obtained,
     * and when standalone.
     */
    public OptionalLong parameterId() {
        ParameterRecord record = current;
        return record == null || record.parameterId() == null ? OptionalLong.empty() : OptionalLong.of(record.parameterId());
    }

    /**
     * Where the trial may write files the user keeps ({@code NNI_OUTPUT_DIR}); else {@code NNI_SYS_DIR};
     * else the working directory.
     */
    public Path outputDirectory() {
        return env.outputDirectory();
    }

    /** The channel's kind, for tests. */
    TrialEnvironment.Kind kind() {
        return env.kind();
    }

    private void report(MetricMessage.Type type, Object value) {
        ParameterRecord record = current;
        Long parameterId = record == null ? null : record.parameterId();
        synchronized (reportLock) {
            int sequence = type == MetricMessage.Type.PERIODICAL ? nextSequence++ : 0;
            MetricMessage message = new MetricMessage(parameterId, trialJobId, type, sequence, value);
            try {
                channel.sendMetric(message);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot report the " + (type == MetricMessage.Type.FINAL ? "final" : "intermediate")
                        + " result: " + e.getMessage(), e);
            }
        }
    }

    private static Double checked(double metric) {
        if (Double.isInfinite(metric)) {
            throw new IllegalArgumentException("a metric must be a finite number or NaN, got " + metric);
        }
        return metric;
    }

    private static Map<?, ?> checked(Map<String, ?> metrics) {
        Objects.requireNonNull(metrics, "metrics");
        Map<?, ?> copy;
        try {
            copy = (Map<?, ?>) JsonValues.immutableCopy(metrics);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("metrics must be JSON values: " + e.getMessage(), e);
        }
        if (!copy.containsKey("default")) {
            throw new IllegalArgumentException("metrics have no \"default\" key, the number the tuner optimises; keys: " + copy.keySet());
        }
        Object value = copy.get("default");
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException("metrics' \"default\" must be a number, got " + JsonValues.describe(value));
        }
        if (Double.isInfinite(number.doubleValue())) {
            throw new IllegalArgumentException("metrics' \"default\" must be a finite number or NaN, got " + number);
        }
        return copy;
    }
}
