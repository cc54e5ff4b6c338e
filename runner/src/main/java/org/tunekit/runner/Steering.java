package org.tunekit.runner;

import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.runner.manager.AddedTrial;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Steers a running experiment by the requests people record in its store ({@code tunekit update},
 * {@code tunekit enqueue}, {@code tunekit stop}, the dashboard): a thread reads the waiting ones every
 * {@link #POLL_EVERY} and hands them to the {@link ExperimentManager}, and records its answer (DONE or
 * REFUSED, with what it said) the moment the manager has taken it, on the manager's thread: an added
 * trial's answer is on disk before the trial starts. A request made while no runner runs waits for the
 * next one ({@code tunekit run --resume}); limits already changed are kept by a resumed run, which
 * applies them again, in order, before its first trial starts, and so are trials added before: one the
 * manager took (its answer names its parameter id) but had not started when the runner stopped (killed,
 * or stopped while it waited for a slot) is handed again, so that a warm start or an enqueued trial is
 * neither lost nor run twice.
 *
 * <p>The kinds, and their JSON payloads:
 * <ul>
 *   <li>{@value #LIMITS}: {@code {"trialConcurrency": 4, "maxTrialNumber": 50, "maxExperimentDuration": "2h"}}, any of them
 *       ({@code maxTrialNumber} 0 and {@code maxExperimentDuration} "0" lift the limit);</li>
 *   <li>{@value #ADD_TRIAL}: {@code {"parameters": {...}}}, checked against the search space, and optionally
 *       {@code "from"}, where they came from ({@code "warmStart[0]"}: a new experiment records its config's
 *       {@code warmStart} so), for the journal;</li>
 *   <li>{@value #STOP_TRIAL}: {@code {"trialJobId": "aB3xY"}};</li>
 *   <li>{@value #STOP}: {@code {}}, the experiment.</li>
 * </ul>
 */
final class Steering implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Steering.class);
    static final String LIMITS = "limits";
    static final String ADD_TRIAL = "add-trial";
    static final String STOP_TRIAL = "stop-trial";
    static final String STOP = "stop";
    static final Duration POLL_EVERY = Duration.ofMillis(500);

    private final ExperimentStore store;
    private final ExperimentManager manager;
    private final SearchSpace space;
    private final Clock clock;

    /** Requests handed to the manager whose answer has not come yet. */
    private final Set<Long> taken = new HashSet<>();
    private Thread thread;
    private volatile boolean closed;

    Steering(ExperimentStore store, ExperimentManager manager, Map<String, Object> searchSpace, Clock clock) {
        this.store = store;
        this.manager = manager;
        this.space = SearchSpace.parse(searchSpace);
        this.clock = clock;
    }

    /**
     * Before the run: on resume, the limits changed before, again, and the trials added before whose trial
     * had not started, again, in the order asked; then the waiting requests, so that new limits hold from
     * the first trial and added trials run before the tuner's. Then starts the thread that takes the later ones.
     */
    void start(boolean resume) {
        if (resume) {
            Set<Long> started = null;
            for (ExperimentStore.Request r : store.requests("DONE")) {
                if (r.kind().equals(LIMITS)) {
                    try {
                        manager.changeLimits(limits(r.payload()));
                    } catch (IllegalArgumentException e) {
                        LOG.warn("limits of request {} not applied again: {}", r.id(), e.getMessage());
                    }
                } else if (r.kind().equals(ADD_TRIAL) && r.answer() != null) {
                    Optional<AddedTrial> added = AddedTrial.fromAnswer(r.answer());
                    if (added.isEmpty()) {
                        continue;
                    }
                    if (started == null) {
                        started = store.trials().stream().map(StoredTrial::parameterId).collect(Collectors.toSet());
                    }
                    if (!started.contains(added.get().parameterId())) {
                        // taken, but the runner stopped before its trial started: it runs now, under a new parameter id
                        hand(r, "again: its trial had not started when the runner stopped");
                    }
                }
            }
        }
        poll();
        thread = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(POLL_EVERY.toMillis());
                    poll();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("could not read the experiment's requests: {}", e.getMessage());
                }
            }
        }, "tunekit-steering");
        thread.setDaemon(true);
        thread.start();
    }

    /** Hands the manager the requests that wait. */
    synchronized void poll() {
        for (ExperimentStore.Request r : store.requests("WAITING")) {
            if (!taken.contains(r.id())) {
                hand(r, null);
            }
        }
    }

    /**
     * Hands one request to the manager, and has its answer recorded as soon as the manager gives it: on the
     * manager's thread, which for an added trial is before the trial starts. One that cannot be taken is refused.
     */
    private synchronized void hand(ExperimentStore.Request r, String again) {
        CompletableFuture<String> f;
        try {
            f = take(r, again);
        } catch (IllegalArgumentException e) {
            store.answerRequest(r.id(), "REFUSED", e.getMessage(), clock.instant());
            return;
        }
        taken.add(r.id());
        f.whenComplete((answer, failure) -> answered(r.id(), answer, failure));
    }

    private synchronized void answered(long id, String answer, Throwable failure) {
        if (!taken.contains(id)) {
            return; // closed: the request waits for the next run
        }
        try {
            if (failure == null) {
                store.answerRequest(id, "DONE", answer, clock.instant());
            } else {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                store.answerRequest(id, "REFUSED", cause.getMessage(), clock.instant());
            }
            taken.remove(id);
        } catch (RuntimeException e) {
            // on the manager's thread: the run goes on; still taken, the request is not handed again before the next run
            LOG.warn("could not record the answer to request {}: {}", id, e.getMessage());
        }
    }

    /**
     * Hands one request to the manager; throws {@link IllegalArgumentException} naming what is wrong with it.
     *
     * @param again why a request answered before is handed again, or {@code null}
     */
    private CompletableFuture<String> take(ExperimentStore.Request r, String again) {
        Map<String, Object> payload = object(r.payload());
        return switch (r.kind()) {
            case LIMITS -> manager.changeLimits(limits(r.payload()));
            case ADD_TRIAL -> {
                Map<String, Object> parameters = checkParameters(space, payload.get("parameters"));
                String from = payload.get("from") instanceof String f && !f.isBlank() ? f + ", request " : "request ";
                // recorded as the answer's text, which a resumed run reads back with AddedTrial.fromAnswer
                yield manager.addTrial(parameters, from + r.id() + (again == null ? "" : " (" + again + ")")).thenApply(AddedTrial::answer);
            }
            case STOP_TRIAL -> {
                if (!(payload.get("trialJobId") instanceof String job) || job.isBlank()) {
                    throw new IllegalArgumentException("a stop-trial request needs \"trialJobId\", got " + r.payload());
                }
                yield manager.stopTrial(job, "stopped by request " + r.id());
            }
            case STOP -> {
                manager.requestStop("stopped by request " + r.id());
                yield CompletableFuture.completedFuture("the experiment is stopping");
            }
            default -> throw new IllegalArgumentException("unknown request kind '" + r.kind() + "' (known: limits, add-trial, stop-trial, stop)");
        };
    }

    /**
     * The payload of an {@value #ADD_TRIAL} request.
     *
     * @param from where the parameters came from, for the journal ({@code warmStart[0]}), or {@code null}
     */
    static String addTrialPayload(Map<String, Object> parameters, String from) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parameters", parameters);
        if (from != null) {
            m.put("from", from);
        }
        return JsonCodec.write(m);
    }

    /** The limits a {@value #LIMITS} payload sets. */
    static ExperimentManager.Limits limits(String payload) {
        Map<String, Object> m = object(payload);
        for (String key : m.keySet()) {
            if (!List.of("trialConcurrency", "maxTrialNumber", "maxExperimentDuration").contains(key)) {
                throw new IllegalArgumentException("unknown limit '" + key + "' (known: trialConcurrency, maxTrialNumber, maxExperimentDuration)");
            }
        }
        Integer concurrency = m.get("trialConcurrency") == null ? null : Math.toIntExact(whole(m.get("trialConcurrency"), "trialConcurrency"));
        Long max = m.get("maxTrialNumber") == null ? null : whole(m.get("maxTrialNumber"), "maxTrialNumber");
        Duration duration = null;
        Object d = m.get("maxExperimentDuration");
        if (d != null) {
            String text = String.valueOf(d).strip();
            duration = text.equals("0") ? Duration.ZERO : ExperimentSpec.parseDuration(text);
        }
        return new ExperimentManager.Limits(concurrency, max, duration);
    }

    private static long whole(Object v, String key) {
        if (v instanceof Long n) {
            return n;
        }
        if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
            return n.longValue();
        }
        throw new IllegalArgumentException(key + " must be a whole number, got " + JsonCodec.write(v));
    }

    /**
     * The parameters of an added trial, checked against the search space.
     *
     * @throws IllegalArgumentException naming the parameter that is missing, unknown or out of range
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> checkParameters(SearchSpace space, Object parameters) {
        if (!(parameters instanceof Map<?, ?> m) || m.isEmpty()) {
            throw new IllegalArgumentException("the parameters must be a JSON object of name: value, got "
                    + (parameters == null ? "nothing" : JsonCodec.write(parameters)));
        }
        Map<String, Object> values = new LinkedHashMap<>((Map<String, Object>) m);
        try {
            space.violation(Parameters.of(values)).ifPresent(v -> {
                throw new IllegalArgumentException("the parameters do not fit the search space: " + v);
            });
        } catch (InvalidSearchSpaceException e) {
            throw new IllegalArgumentException("the parameters do not fit the search space: " + e.getMessage(), e);
        }
        return values;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String json) {
        try {
            Object v = JsonCodec.parse(json, "the request");
            if (v instanceof Map<?, ?> m) {
                return (Map<String, Object>) m;
            }
            throw new IllegalArgumentException("a request must be a JSON object, got " + json);
        } catch (ProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Stops the thread; requests not yet answered wait for the next run. */
    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
        taken.clear();
    }
}
