package org.tunekit.sdk.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Calls one tuner exactly as the dispatcher does: {@code updateSearchSpace} once, parameter ids from
 * 0, {@code generateParameters} for a single trial and {@code generateMultipleParameters} for more,
 * then for each trial {@code receiveTrialResult} (not customized, with a trial job id) before
 * {@code trialEnd}, all from the calling thread. Every suggestion is checked against the space; any
 * failure, the tuner's own exceptions included, becomes an {@link AssertionError} with the given context.
 *
 * <p>The tuner is opened with a {@link TunerContext} first. A trial it sends through the context takes
 * the next parameter id, ends an exhaustion (as a {@code TR} after {@code NO} does for a manager) and
 * waits for a free slot: the next {@link #suggest} hands out the waiting sent trials first and asks
 * the tuner only for the slots they leave. The context works only inside the driver's calls into the
 * tuner, on the thread that created the driver.
 */
final class TunerDriver {
    private final Tuner tuner;
    private final SearchSpace space;
    private final String context;
    private long nextId;
    private boolean exhausted;
    private String exhaustion = "";
    private final Thread owner = Thread.currentThread();
    private int callDepth;
    private final Deque<Suggestion> sent = new ArrayDeque<>();
    private final TunerContext tunerContext = this::sendTrial;

    /** One suggestion and its id. */
    record Suggestion(long parameterId, Parameters parameters) {}

    TunerDriver(Tuner tuner, SearchSpace space, String context) {
        this.tuner = tuner;
        this.space = space;
        this.context = context;
    }

    /** Sends the search space, as {@code IN} does. */
    TunerDriver start() {
        call("open", () -> tuner.open(tunerContext));
        call("updateSearchSpace", () -> tuner.updateSearchSpace(space));
        return this;
    }

    Tuner tuner() {
        return tuner;
    }

    /** Whether the tuner refused its last request and has sent nothing through its context since. */
    boolean exhausted() {
        return exhausted && sent.isEmpty();
    }

    String exhaustionMessage() {
        return exhaustion;
    }

    long nextId() {
        return nextId;
    }

    /** Skips one parameter id, as when the ids before a checkpoint were used by another instance. */
    void skipId() {
        nextId++;
    }

    /** The trials the tuner has sent through its context that no {@link #suggest} has handed out yet. */
    int waitingSent() {
        return sent.size();
    }

    /**
     * Fills {@code count} free trial slots: first with trials the tuner sent through its context, then
     * by asking the tuner for the rest as one {@code GE} does. Returns fewer when the tuner has run out
     * (then {@link #exhausted()} is true).
     */
    List<Suggestion> suggest(int count) {
        List<Suggestion> out = new ArrayList<>(count);
        while (out.size() < count && !sent.isEmpty()) {
            out.add(sent.poll());
        }
        if (out.size() < count) {
            out.addAll(request(count - out.size()));
        }
        return out;
    }

    /** Asks the tuner for {@code count} suggestions as one {@code GE count} does. */
    private List<Suggestion> request(int count) {
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(nextId++);
        }
        List<Parameters> sets;
        callDepth++;
        boolean refused = false;
        if (count == 1) {
            sets = new ArrayList<>(1);
            try {
                sets.add(tuner.generateParameters(ids.get(0)));
            } catch (NoMoreTrialsException e) {
                refused = true;
                exhaustion = String.valueOf(e.getMessage());
            } catch (RuntimeException e) {
                throw failure("the tuner threw from generateParameters(" + ids.get(0) + "): " + e, e);
            } finally {
                callDepth--;
            }
        } else {
            try {
                sets = tuner.generateMultipleParameters(List.copyOf(ids));
            } catch (RuntimeException e) {
                throw failure("the tuner threw from generateMultipleParameters(" + ids + "): " + e, e);
            } finally {
                callDepth--;
            }
            if (sets == null) {
                throw failure("generateMultipleParameters(" + ids + ") returned null", null);
            }
            if (sets.size() > count) {
                throw failure("generateMultipleParameters was given " + count + " ids but returned " + sets.size()
                        + " parameter sets", null);
            }
            refused = sets.size() < count;
        }
        if (refused) {
            exhausted = true;
        }
        List<Suggestion> out = new ArrayList<>(sets.size());
        for (int i = 0; i < sets.size(); i++) {
            out.add(checked(ids.get(i), sets.get(i), "the suggestion"));
        }
        return out;
    }

    private Suggestion checked(long id, Parameters p, String what) {
        if (p == null) {
            throw failure("the tuner returned null parameters for parameter id " + id, null);
        }
        Optional<String> violation = space.violation(p);
        if (violation.isPresent()) {
            throw failure(what + " for parameter id " + id + " is outside the search space: " + violation.get()
                    + "; suggestion: " + p.values(), null);
        }
        return new Suggestion(id, p);
    }

    /** The context's {@code sendTrial}: usable only inside a call into the tuner, on the driver's thread. */
    private long sendTrial(Parameters parameters) {
        Objects.requireNonNull(parameters, "TunerContext.sendTrial: parameters must not be null");
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("TunerContext.sendTrial called from thread '" + Thread.currentThread().getName()
                    + "': only the tuner's own callbacks, on the thread that calls them ('" + owner.getName() + "'), may use the context");
        }
        if (callDepth == 0) {
            throw new IllegalStateException("TunerContext.sendTrial called outside the tuner's callbacks"
                    + " (after the run, or from code the driver did not call)");
        }
        long id = nextId++;
        sent.add(checked(id, parameters, "the trial sent through the context"));
        exhausted = false;
        return id;
    }

    /** Reports a successful trial's final result and then its end, as {@code ME FINAL} and {@code EN} do. */
    void report(Suggestion s, double value) {
        TrialResult result = new TrialResult(s.parameterId(), s.parameters(), Metric.of(value), false, trialJobId(s.parameterId()));
        call("receiveTrialResult(" + s.parameterId() + ")", () -> tuner.receiveTrialResult(result));
        call("trialEnd(" + s.parameterId() + ", true)", () -> tuner.trialEnd(s.parameterId(), true));
    }

    /** Asks for {@code count} suggestions and reports each with {@code objective}; returns them. */
    List<Suggestion> step(int count, ToDoubleFunction<Parameters> objective) {
        List<Suggestion> got = suggest(count);
        for (Suggestion s : got) {
            double v = evaluate(objective, s.parameters());
            report(s, v);
        }
        return got;
    }

    /** Runs up to {@code trials} trials in steps of {@code batch}; stops early when the tuner runs out. */
    List<Suggestion> run(int trials, int batch, ToDoubleFunction<Parameters> objective) {
        List<Suggestion> all = new ArrayList<>();
        while (all.size() < trials && !exhausted()) {
            all.addAll(step(Math.min(batch, trials - all.size()), objective));
        }
        return all;
    }

    void importData(List<ImportedTrial> trials) {
        call("importData(" + trials.size() + " trials)", () -> tuner.importData(trials));
    }

    double evaluate(ToDoubleFunction<Parameters> objective, Parameters p) {
        try {
            return objective.applyAsDouble(p);
        } catch (RuntimeException e) {
            throw failure("the objective failed on " + p.values() + ": " + e, e);
        }
    }

    /** The trial job id the driver gives the trial of a parameter id. */
    static String trialJobId(long parameterId) {
        return String.format("trial%05d", parameterId);
    }

    /**
     * The metric the contract checks report: the squared distance, in the unit view of the space,
     * from a point at 0.3 in every active coordinate. Deterministic and smooth, so model-based tuners
     * have something to learn.
     */
    static ToDoubleFunction<Parameters> contractMetric(SearchSpace space) {
        EncodedSpace encoded = EncodedSpace.of(space);
        return p -> {
            double[] u = encoded.toUnit(encoded.encode(p));
            double sum = 0;
            for (double x : u) {
                if (!Double.isNaN(x)) {
                    sum += (x - 0.3) * (x - 0.3);
                }
            }
            return sum;
        };
    }

    AssertionError failure(String what, Throwable cause) {
        return new AssertionError(context + ": " + what, cause);
    }

    private void call(String what, Runnable r) {
        callDepth++;
        try {
            r.run();
        } catch (RuntimeException e) {
            throw failure("the tuner threw from " + what + ": " + e, e);
        } finally {
            callDepth--;
        }
    }
}
