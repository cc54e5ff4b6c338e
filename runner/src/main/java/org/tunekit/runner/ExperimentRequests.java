package org.tunekit.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Requests to steer an experiment, recorded in its store for its runner to take ({@link Steering}, which
 * lists the kinds and their payloads): what {@code tunekit update}, {@code enqueue} and {@code stop} and
 * the dashboard's controls make. A request is checked before it is recorded; a running experiment
 * answers within a second, one not running when it is resumed.
 */
public final class ExperimentRequests {
    /** Change the limits: trialConcurrency, maxTrialNumber, maxExperimentDuration. */
    public static final String LIMITS = Steering.LIMITS;
    /** Run a trial with given parameters next. */
    public static final String ADD_TRIAL = Steering.ADD_TRIAL;
    /** Stop one trial. */
    public static final String STOP_TRIAL = Steering.STOP_TRIAL;
    /** Stop the experiment. */
    public static final String STOP = Steering.STOP;

    private ExperimentRequests() {}

    /**
     * Checks a request and records it in the store of the experiment in {@code folder}.
     *
     * @param payload the request's arguments, as a JSON object
     * @return the request's id
     * @throws IllegalArgumentException naming what is wrong with the kind or the payload (nothing is recorded)
     */
    public static long submit(Path folder, String kind, String payload) {
        check(folder, kind, payload);
        return ExperimentStore.request(folder, kind, payload, Instant.now());
    }

    private static void check(Path folder, String kind, String payload) {
        Object parsed;
        try {
            parsed = JsonCodec.parse(payload, "the request");
        } catch (ProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("a request's payload must be a JSON object, got " + payload);
        }
        switch (kind == null ? "" : kind) {
            case Steering.LIMITS -> {
                var limits = Steering.limits(payload);
                if (limits.trialConcurrency() == null && limits.maxTrialNumber() == null && limits.maxExperimentDuration() == null) {
                    throw new IllegalArgumentException("give at least one of trialConcurrency, maxTrialNumber, maxExperimentDuration");
                }
            }
            case Steering.ADD_TRIAL -> {
                SearchSpace space;
                try (ExperimentStore store = ExperimentStore.open(folder, true)) {
                    space = SearchSpace.parse(store.spec().searchSpace());
                }
                Steering.checkParameters(space, m.get("parameters"));
            }
            case Steering.STOP_TRIAL -> {
                if (!(m.get("trialJobId") instanceof String job) || job.isBlank()) {
                    throw new IllegalArgumentException("a stop-trial request needs \"trialJobId\", got " + payload);
                }
            }
            case Steering.STOP -> {
                // no arguments
            }
            default -> throw new IllegalArgumentException("unknown request '" + kind + "' (known: " + String.join(", ",
                    Steering.LIMITS, Steering.ADD_TRIAL, Steering.STOP_TRIAL, Steering.STOP) + ")");
        }
    }

    /**
     * Waits until the runner has answered the requests {@code ids}, or {@code within} has passed.
     *
     * @return the requests, in the order of {@code ids}; those not answered are still WAITING
     */
    public static List<ExperimentReader.Request> await(Path folder, List<Long> ids, Duration within) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (true) {
            List<ExperimentReader.Request> answers = new ArrayList<>();
            try (ExperimentStore store = ExperimentStore.open(folder, true)) {
                List<ExperimentStore.Request> all = store.requests(null);
                for (long id : ids) {
                    all.stream().filter(r -> r.id() == id).findFirst()
                            .ifPresent(r -> answers.add(new ExperimentReader.Request(r.id(), r.kind(), r.payload(), r.state(), r.answer())));
                }
            }
            if (answers.stream().noneMatch(r -> r.state().equals("WAITING")) || System.nanoTime() > until) {
                return answers;
            }
            Thread.sleep(100);
        }
    }
}
