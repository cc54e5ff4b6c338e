package org.tunekit.study;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * How long and how {@link Study#optimize} runs: until it has started {@code trials} trials (0: no limit), until
 * {@code timeout} has passed (no new trial starts after it; those running finish), until a callback calls
 * {@link Study#stop()}, or until {@code stopWhen} holds after a trial; with {@code threads} trials at a time.
 *
 * <pre>{@code
 * study.optimize(objective, OptimizeOptions.trials(100).threads(4).timeout(Duration.ofMinutes(10)));
 * }</pre>
 *
 * @param trials         how many trials to start, 0 for no limit (then a timeout or a stop ends it)
 * @param timeout        how long to start trials, or {@code null} for no limit
 * @param threads        how many trials run at once, each on a thread of its own
 * @param stopOnFailure  true to stop at the first trial whose objective throws, and throw its exception
 * @param callbacks      called after each trial
 * @param stopWhen       checked after each trial: true stops the optimisation; {@code null} for none
 */
public record OptimizeOptions(int trials, Duration timeout, int threads, boolean stopOnFailure, List<StudyCallback> callbacks,
                              Predicate<Study> stopWhen) {

    /** Checks the options. */
    public OptimizeOptions {
        if (trials < 0) {
            throw new IllegalArgumentException("trials: must be 0 (no limit) or more, got " + trials);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads: must be 1 or more, got " + threads);
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("timeout: must be positive, got " + timeout);
        }
        if (trials == 0 && timeout == null && stopWhen == null && callbacks.isEmpty()) {
            throw new IllegalArgumentException("no end: give a number of trials, a timeout, a stop condition or a callback that stops");
        }
        callbacks = List.copyOf(callbacks);
    }

    /** Runs {@code n} trials, one at a time. */
    public static OptimizeOptions trials(int n) {
        return new OptimizeOptions(n, null, 1, false, List.of(), null);
    }

    /** Starts trials, one at a time, for {@code timeout}. */
    public static OptimizeOptions timeout(Duration timeout) {
        return new OptimizeOptions(0, timeout, 1, false, List.of(), null);
    }

    /** The same, with a timeout. */
    public OptimizeOptions withTimeout(Duration d) {
        return new OptimizeOptions(trials, d, threads, stopOnFailure, callbacks, stopWhen);
    }

    /** The same, with {@code n} trials at a time. */
    public OptimizeOptions threads(int n) {
        return new OptimizeOptions(trials, timeout, n, stopOnFailure, callbacks, stopWhen);
    }

    /** The same, stopping at the first failed objective. */
    public OptimizeOptions stopOnFirstFailure() {
        return new OptimizeOptions(trials, timeout, threads, true, callbacks, stopWhen);
    }

    /** The same, with one more callback. */
    public OptimizeOptions callback(StudyCallback c) {
        List<StudyCallback> all = new ArrayList<>(callbacks);
        all.add(c);
        return new OptimizeOptions(trials, timeout, threads, stopOnFailure, all, stopWhen);
    }

    /** The same, stopping once {@code condition} holds after a trial. */
    public OptimizeOptions stopWhen(Predicate<Study> condition) {
        return new OptimizeOptions(trials, timeout, threads, stopOnFailure, callbacks, condition);
    }
}
