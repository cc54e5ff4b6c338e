package org.tunekit.tuners.auto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.gp.GpTunerProvider;
import org.tunekit.tuners.turbo.TurboTunerProvider;

/**
 * The recommended default tuner: it runs the built-in algorithm that suits the search space and the
 * budget.
 *
 * <p>The choice ({@link Plan}): a space of at most {@value Plan#GLOBAL_DIMENSIONS} coordinates, or one
 * with nested choices, is searched by {@code GPTuner}, a global Gaussian process; a larger flat space
 * by {@code TuRBO}, a Gaussian process in a trust region around the best point, unless the budget
 * ({@code max_trial_number}) is under {@value Plan#LOCAL_BUDGET} trials, which {@code GPTuner} uses
 * better. On the quality benchmark's functions {@code GPTuner} is the best of Tunekit's tuners on
 * every function of up to six parameters, and on most of those of 8 to 20 parameters after 25 and 50
 * trials, where {@code TuRBO} is the best on most after 100. Batches are the chosen tuner's: both
 * model pending suggestions by their predicted value, which spreads a batch out.
 *
 * <p>Resume by replay: the choice is a function of the space and the class arguments, and the chosen
 * tuner resumes by replay. When a new search space calls for the other tuner, that one is given
 * every result so far through {@link Tuner#importData}, in the order they came.
 *
 * <p>Class arguments: {@code optimize_mode} (default {@code maximize}, as NNI's tuners) and
 * {@code seed}, passed on to the chosen tuner, and {@code max_trial_number}, the number of trials the
 * experiment will run (its config's {@code maxTrialNumber}), when known.
 */
final class AutoTuner implements Tuner {
    private static final System.Logger LOG = System.getLogger(AutoTuner.class.getName());

    /** Which algorithm searches a space. */
    record Plan(String tuner, String reason) {
        /** Spaces of up to this many coordinates are searched by the global Gaussian process. */
        static final int GLOBAL_DIMENSIONS = 6;
        /** Budgets below this many trials keep larger spaces with the global Gaussian process too. */
        static final int LOCAL_BUDGET = 75;

        static Plan of(SearchSpace space, OptionalLong budget) {
            EncodedSpace encoded = EncodedSpace.of(space);
            int d = encoded.size();
            if (encoded.dimensions().stream().anyMatch(x -> x.parent() >= 0)) {
                return new Plan("GPTuner", "a space with nested choices");
            }
            if (d <= GLOBAL_DIMENSIONS) {
                return new Plan("GPTuner", d + " parameters");
            }
            if (budget.isPresent() && budget.getAsLong() < LOCAL_BUDGET) {
                return new Plan("GPTuner", d + " parameters and a budget of " + budget.getAsLong() + " trials");
            }
            return new Plan("TuRBO", d + " parameters" + (budget.isPresent() ? " and a budget of " + budget.getAsLong() + " trials" : ""));
        }
    }

    private final String mode;
    private final long seed;
    private final OptionalLong budget;

    private TunerContext context;
    private SearchSpace space;
    private String current;
    private Tuner tuner;
    /** Every result learnt, imported or received, in the order it came, for a tuner a new space calls for. */
    private final List<ImportedTrial> results = new ArrayList<>();

    AutoTuner(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed", "max_trial_number");
        mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE) == OptimizeMode.MINIMIZE ? "minimize" : "maximize";
        OptionalLong given = arguments.getOptionalLong("seed");
        seed = given.isPresent() ? given.getAsLong() : new SplittableRandom().nextLong();
        budget = arguments.getOptionalLong("max_trial_number");
        if (budget.isPresent() && budget.getAsLong() < 1) {
            throw new InvalidClassArgumentException("class argument 'max_trial_number' must be at least 1, got " + budget.getAsLong());
        }
    }

    /** The name of the tuner searching now, or null before the search space is set. */
    String current() {
        return current;
    }

    @Override
    public void open(TunerContext context) {
        this.context = context;
        if (tuner != null) {
            tuner.open(context);
        }
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && newSpace.equals(space)) {
            return;
        }
        space = newSpace;
        Plan plan = Plan.of(newSpace, budget);
        if (tuner != null && plan.tuner().equals(current)) {
            tuner.updateSearchSpace(newSpace);
            return;
        }
        LOG.log(System.Logger.Level.INFO, "Auto: " + plan.tuner() + " for " + plan.reason());
        start(plan.tuner());
    }

    private void start(String name) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("optimize_mode", mode);
        args.put("seed", seed);
        Tuner next = switch (name) {
            case "GPTuner" -> new GpTunerProvider().create(ClassArguments.of(args));
            case "TuRBO" -> new TurboTunerProvider().create(ClassArguments.of(args));
            default -> throw new IllegalStateException("Auto: no tuner named " + name);
        };
        if (context != null) {
            next.open(context);
        }
        next.updateSearchSpace(space);
        if (!results.isEmpty()) {
            next.importData(List.copyOf(results));
        }
        tuner = next;
        current = name;
    }

    private Tuner tuner() {
        if (tuner == null) {
            throw new IllegalStateException("Auto: the search space has not been set");
        }
        return tuner;
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        return tuner().generateParameters(parameterId);
    }

    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        return tuner().generateMultipleParameters(parameterIds);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        if (tuner == null) {
            return;
        }
        tuner.receiveTrialResult(result);
        if (result.parameters() != null) {
            results.add(new ImportedTrial(result.parameters(), result.metric()));
        }
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        if (tuner != null) {
            tuner.trialEnd(parameterId, success);
        }
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        if (tuner == null) {
            return;
        }
        results.addAll(trials);
        tuner.importData(trials);
    }
}
