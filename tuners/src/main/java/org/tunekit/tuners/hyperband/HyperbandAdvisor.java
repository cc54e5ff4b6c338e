package org.tunekit.tuners.hyperband;

import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Hyperband (Li et al. 2018): the {@link BracketAdvisor} schedule with configurations drawn from the
 * search space's prior. {@code R} is the largest budget, {@code s_max = floor(log_eta(R / min_budget))},
 * and the smallest budget is {@code R · eta^-s_max}. {@code min_budget} (beyond NNI's arguments,
 * default 1, which gives NNI's {@code s_max = floor(log_eta R)}) keeps the first rung past a phase in
 * which results say little about the final ranking, such as a learning-rate warm-up. With
 * {@code min_budget: "auto"} (and {@code n_startup_trials}, default 10) it is found from the first
 * full-budget trials' intermediate results, as {@link BracketAdvisor} describes.
 */
final class HyperbandAdvisor extends BracketAdvisor {
    private static final System.Logger LOG = System.getLogger(HyperbandAdvisor.class.getName());

    private HyperbandAdvisor(OptimizeMode mode, long seed, double r, double minBudget, int eta, ExecMode execMode, int startupTrials) {
        super("Hyperband", mode, seed, r, startupTrials > 0 ? 0 : largestBracket(r / minBudget, eta), eta, execMode, startupTrials);
    }

    /**
     * Reads NNI's class arguments: {@code R}, {@code eta}, {@code optimize_mode}, {@code exec_mode},
     * plus {@code min_budget} (a number, or {@value BracketAdvisor#AUTO} with {@code n_startup_trials}) and {@code seed}.
     */
    static HyperbandAdvisor create(ClassArguments arguments) {
        arguments.requireOnly("R", "eta", "optimize_mode", "exec_mode", "min_budget", "n_startup_trials", "seed");
        double r = arguments.getDouble("R", 60);
        if (!(r >= 1) || Double.isInfinite(r)) {
            throw new InvalidClassArgumentException("class argument 'R' (the largest budget) must be a number >= 1, got " + r);
        }
        int startupTrials = startupTrials(arguments);
        double minBudget = startupTrials > 0 ? r : arguments.getDouble("min_budget", 1);
        if (!(minBudget > 0) || !(minBudget <= r)) {
            throw new InvalidClassArgumentException("class argument 'min_budget' must satisfy 0 < min_budget <= R (" + r + "), got "
                    + minBudget);
        }
        int eta = arguments.getInt("eta", 3, 2);
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        ExecMode exec = arguments.getChoice("exec_mode", "parallelism", "parallelism", "serial").equals("serial")
                ? ExecMode.SERIAL : ExecMode.PARALLELISM;
        OptionalLong given = arguments.getOptionalLong("seed");
        long seed = given.isPresent() ? given.getAsLong() : new SplittableRandom().nextLong();
        if (given.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "Hyperband: no seed given, using seed " + seed);
        }
        return new HyperbandAdvisor(mode, seed, r, minBudget, eta, exec, startupTrials);
    }

    @Override
    protected Parameters sampleConfig(SearchSpace space, int budgetIndex, SplittableRandom rng) {
        return space.sample(rng);
    }
}
