package org.tunekit.study;

import org.tunekit.sdk.Parameters;

/**
 * A running trial of a study, handed out by {@link Study#ask()} or to an objective function by
 * {@link Study#optimize}: its parameters, and where it reports intermediate values and learns whether to stop.
 * It ends when the study is told its result ({@link Study#tell}), its failure or its pruning.
 *
 * <p>Thread-safe; usually used by the one thread that evaluates it.
 */
public final class Trial {
    private final Study study;
    private final TrialRecord started;

    Trial(Study study, TrialRecord started) {
        this.study = study;
        this.started = started;
    }

    /** Its number in the study, from 0. */
    public int number() {
        return started.number();
    }

    /** The parameter id its parameters were suggested under. */
    public long parameterId() {
        return started.parameterId();
    }

    /** Its parameters, in the search space's order. */
    public Parameters parameters() {
        return started.parameters();
    }

    /** A numeric parameter ({@code uniform}, {@code loguniform}, {@code normal}, ... or a numeric choice). */
    public double getDouble(String name) {
        return started.parameters().getDouble(name);
    }

    /** An integral parameter ({@code randint}, or a choice among integers). */
    public long getLong(String name) {
        return started.parameters().getLong(name);
    }

    /** An integral parameter that fits an {@code int}. */
    public int getInt(String name) {
        return Math.toIntExact(getLong(name));
    }

    /** A string parameter (a choice among strings). */
    public String getString(String name) {
        return started.parameters().getString(name);
    }

    /** A parameter as the tuner gave it ({@code Long}, {@code Double}, a choice's option, or a nested choice's map). */
    public Object get(String name) {
        Object v = started.parameters().get(name);
        if (v == null && !started.parameters().values().containsKey(name)) {
            throw new IllegalArgumentException("no parameter '" + name + "' in " + started.parameters().values().keySet());
        }
        return v;
    }

    /**
     * Reports an intermediate value (such as the validation loss after an epoch) and lets the study's assessor
     * judge the trial; {@link #shouldPrune()} then tells its verdict.
     *
     * @param step  where the value was measured (an epoch, a number of examples); larger than any step reported before
     * @param value the value, a finite number, in the direction of the study's first objective
     * @throws IllegalArgumentException when the value is not finite or the step does not grow
     * @throws StudyException           when the trial has ended or the study is closed
     */
    public void report(long step, double value) {
        study.report(this, step, value);
    }

    /**
     * True when the assessor judged, at the last {@link #report}, that the trial will not do well: the objective
     * should stop and throw {@link TrialPrunedException} (or, in an ask-and-tell loop, call {@link Study#prune}).
     * Always false in a study without an assessor.
     */
    public boolean shouldPrune() {
        return study.shouldPrune(this);
    }

    TrialRecord started() {
        return started;
    }

    Study study() {
        return study;
    }

    @Override
    public String toString() {
        return "Trial " + number() + " " + parameters().values();
    }
}
