package org.tunekit.sdk.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;

/**
 * Answers a request for trials from one tuner, by the one rule the dispatcher, the SDK's test kit and
 * the benchmarks follow: the trials waiting to run go first (those the tuner sent through its context,
 * or added by hand), in the order they were added; the tuner is asked for the rest, each with the next
 * parameter id: {@code generateParameters} for one, {@code generateMultipleParameters} for more. A
 * tuner that gives fewer than it was asked for (for one, by throwing {@link NoMoreTrialsException})
 * has run out, until a trial is added or it fills a later request.
 *
 * <p>Not thread-safe: a request and the additions made during it (a tuner sending a trial from inside
 * {@code generateParameters}) happen on the caller's thread. Not part of the plugin SPI.
 */
public final class TrialRequests {
    private final Tuner tuner;
    private final LongSupplier ids;
    private final Deque<Trial> waiting = new ArrayDeque<>();
    private boolean ranOut;

    /** A trial to run: its parameter id and its parameters. */
    public record Trial(long parameterId, Parameters parameters) {}

    /**
     * The answer to one request.
     *
     * @param trials the trials to run, the waiting ones first; at most as many as were requested
     * @param asked  the parameter ids the tuner was asked to fill, in order (each taken, filled or not)
     * @param ranOut true when the tuner gave fewer trials than it was asked for
     * @param reason the message of the tuner's {@link NoMoreTrialsException}, when it threw one, else {@code null}
     */
    public record Answer(List<Trial> trials, List<Long> asked, boolean ranOut, String reason) {}

    /**
     * The tuner failed a request: it threw (the cause), or it broke the contract (no cause; the message
     * says how: a {@code null} list, more parameter sets than ids, {@code null} parameters).
     */
    public static final class TunerFailure extends RuntimeException {
        private final String call;

        TunerFailure(String call, String message, RuntimeException cause) {
            super(message, cause);
            this.call = call;
        }

        /** The call that failed, as {@code generateParameters(3)} or {@code generateMultipleParameters([3, 4])}. */
        public String call() {
            return call;
        }
    }

    /**
     * @param tuner the tuner asked for the trials no waiting one fills
     * @param ids   the next parameter id at each call, shared with whatever else gives ids (a tuner's context)
     */
    public TrialRequests(Tuner tuner, LongSupplier ids) {
        this.tuner = Objects.requireNonNull(tuner, "tuner");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /** Adds a trial that runs before the tuner is asked again; it ends the tuner's running out. */
    public void add(long parameterId, Parameters parameters) {
        waiting.add(new Trial(parameterId, Objects.requireNonNull(parameters, "parameters")));
        ranOut = false;
    }

    /** How many added trials wait for a request. */
    public int waiting() {
        return waiting.size();
    }

    /** True when the tuner ran out at the last request it was asked in, and no trial was added since that waits. */
    public boolean exhausted() {
        return ranOut && waiting.isEmpty();
    }

    /**
     * Answers a request for {@code count} trials (0 asks nothing).
     *
     * @throws TunerFailure when the tuner throws (other than {@link NoMoreTrialsException} for one trial)
     *                      or breaks the contract; the ids it was asked for are taken all the same
     */
    public Answer request(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("a request for trials needs a count of at least 0, got " + count);
        }
        List<Trial> trials = new ArrayList<>(count);
        while (trials.size() < count && !waiting.isEmpty()) {
            trials.add(waiting.poll());
        }
        int ask = count - trials.size();
        if (ask == 0) {
            return new Answer(trials, List.of(), false, null);
        }
        ranOut = false;
        List<Long> asked = new ArrayList<>(ask);
        for (int i = 0; i < ask; i++) {
            asked.add(ids.getAsLong());
        }
        List<Parameters> sets;
        String reason = null;
        if (ask == 1) {
            String call = "generateParameters(" + asked.get(0) + ")";
            sets = new ArrayList<>(1);
            try {
                sets.add(tuner.generateParameters(asked.get(0)));
            } catch (NoMoreTrialsException e) {
                reason = String.valueOf(e.getMessage());
            } catch (RuntimeException e) {
                throw new TunerFailure(call, "the tuner failed in " + call, e);
            }
        } else {
            String call = "generateMultipleParameters(" + asked + ")";
            try {
                sets = tuner.generateMultipleParameters(List.copyOf(asked));
            } catch (RuntimeException e) {
                throw new TunerFailure(call, "the tuner failed in " + call, e);
            }
            if (sets == null || sets.size() > ask) {
                throw new TunerFailure(call, "the tuner returned " + (sets == null ? "null" : sets.size() + " parameter sets")
                        + " for the " + ask + " ids " + asked, null);
            }
        }
        for (int i = 0; i < sets.size(); i++) {
            if (sets.get(i) == null) {
                String call = ask == 1 ? "generateParameters(" + asked.get(0) + ")" : "generateMultipleParameters(" + asked + ")";
                throw new TunerFailure(call, "the tuner returned null parameters for id " + asked.get(i), null);
            }
            trials.add(new Trial(asked.get(i), sets.get(i)));
        }
        ranOut = sets.size() < ask;
        return new Answer(trials, List.copyOf(asked), ranOut, reason);
    }
}
