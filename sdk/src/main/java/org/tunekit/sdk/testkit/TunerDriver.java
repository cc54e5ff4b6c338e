package org.tunekit.sdk.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.internal.TrialRequests;
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
    private String exhaustion = "";
    private final Thread owner = Thread.currentThread();
    private int callDepth;
    private final TrialRequests requests;
    private final TunerContext tunerContext = this::sendTrial;

    /** One suggestion and its id. */
    record Suggestion(long parameterId, Parameters parameters) {}

    TunerDriver(Tuner tuner, SearchSpace space, String context) {
        this.tuner = tuner;
        this.space = space;
        this.context = context;
        this.requests = new TrialRequests(tuner, () -> nextId++);
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
        return requests.exhausted();
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
        return requests.waiting();
    }

    /**
     * Fills {@code count} free trial slots as the dispatcher answers {@code GE count} ({@link TrialRequests}):
     * first with trials the tuner sent through its context, then by asking the tuner for the rest. Returns
     * fewer when the tuner has run out (then {@link #exhausted()} is true).
     */
    List<Suggestion> suggest(int count) {
        TrialRequests.Answer answer;
        callDepth++;
        try {
            answer = requests.request(count);
        } catch (TrialRequests.TunerFailure f) {
            throw f.getCause() == null ? failure(f.getMessage(), null)
                    : failure("the tuner threw from " + f.call() + ": " + f.getCause(), f.getCause());
        } finally {
            callDepth--;
        }
        if (answer.reason() != null) {
            exhaustion = answer.reason();
        }
        List<Suggestion> out = new ArrayList<>(answer.trials().size());
        for (TrialRequests.Trial t : answer.trials()) {
            out.add(checked(t.parameterId(), t.parameters(), "the suggestion"));
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
        requests.add(id, checked(id, parameters, "the trial sent through the context").parameters());
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
