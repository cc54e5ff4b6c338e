package org.tunekit.study;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** One call of {@link Study#optimize}: its threads, each asking for a trial, evaluating it and telling the result. */
final class Optimization {
    private final Study study;
    private final MultiObjectiveFunction objective;
    private final OptimizeOptions options;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Instant deadline;
    private volatile boolean done;

    Optimization(Study study, MultiObjectiveFunction objective, OptimizeOptions options) {
        this.study = study;
        this.objective = objective;
        this.options = options;
        this.deadline = options.timeout() == null ? null : study.clock().instant().plus(options.timeout());
    }

    void run() {
        study.clearStop();
        if (options.threads() == 1) {
            work();
        } else {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < options.threads(); i++) {
                Thread t = new Thread(this::work, "tunekit-study " + study.name() + " #" + i);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    done = true;
                    Thread.currentThread().interrupt();
                    throw new StudyException("interrupted while the study '" + study.name() + "' ran", e);
                }
            }
        }
        Throwable f = failure.get();
        if (f instanceof Error e) {
            throw e;
        }
        if (f instanceof StudyException e) {
            throw e;
        }
        if (f != null) {
            throw new StudyException("study '" + study.name() + "' stopped: " + f, f);
        }
    }

    private boolean mayStart() {
        if (done || study.stopRequested() || (deadline != null && !study.clock().instant().isBefore(deadline))) {
            return false;
        }
        if (options.trials() > 0 && started.incrementAndGet() > options.trials()) {
            started.decrementAndGet();
            return false;
        }
        return true;
    }

    private void work() {
        while (mayStart()) {
            Trial trial;
            try {
                trial = study.ask();
            } catch (StudyExhaustedException e) {
                if (options.trials() > 0) {
                    started.decrementAndGet();
                }
                if (!e.trialsRunning()) {
                    return;
                }
                try {
                    study.awaitTrialEnd(Duration.ofSeconds(1));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                continue;
            } catch (RuntimeException | Error e) {
                stopWith(e);
                return;
            }
            TrialRecord ended;
            try {
                ended = evaluate(trial);
            } catch (RuntimeException | Error e) {
                stopWith(e);
                return;
            }
            try {
                for (StudyCallback c : options.callbacks()) {
                    c.trialEnded(study, ended);
                }
                if (options.stopWhen() != null && options.stopWhen().test(study)) {
                    done = true;
                }
            } catch (RuntimeException | Error e) {
                stopWith(e);
                return;
            }
        }
    }

    /** Evaluates a trial and ends it as its objective's outcome says; throws only what must stop the study. */
    private TrialRecord evaluate(Trial trial) {
        double[] values;
        try {
            values = objective.evaluate(trial);
        } catch (TrialPrunedException p) {
            return study.endUnsuccessfully(trial, TrialState.EARLY_STOPPED, p.getMessage());
        } catch (Exception e) {
            TrialRecord t = study.fail(trial, e);
            if (options.stopOnFailure()) {
                stopWith(e);
            }
            return t;
        } catch (Error e) {
            study.fail(trial, e);
            throw e;
        }
        try {
            return study.tell(trial, values);
        } catch (IllegalArgumentException e) {
            // a NaN, or not one value per objective: the objective's fault, recorded as its failure
            TrialRecord t = study.fail(trial, e);
            if (options.stopOnFailure()) {
                stopWith(e);
            }
            return t;
        }
    }

    private void stopWith(Throwable e) {
        failure.compareAndSet(null, e);
        done = true;
    }
}
