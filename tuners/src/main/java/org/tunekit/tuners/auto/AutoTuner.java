package org.tunekit.tuners.auto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
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
 * The recommended default tuner: it runs one of the built-in algorithms, chosen by the search space
 * and by how many results have come in, and hands over from one to the next by replaying the results.
 *
 * <p>The choice ({@link Plan}): a space of at most {@value Plan#GLOBAL_DIMENSIONS} coordinates, or one
 * with nested choices, is searched by {@code GPTuner} throughout; a larger flat space by
 * {@code GPTuner} until it has {@value Plan#RESULTS_PER_DIMENSION} results per coordinate (at most
 * {@value Plan#MAX_HAND_OVER}), and then by {@code TuRBO}, whose trust region starts at the best of
 * them. On the quality benchmark's functions the global Gaussian process is the best of Tunekit's
 * tuners on every function of up to six parameters, and on most of the larger ones after 25 and 50
 * trials, while TuRBO's local search is the best on most of the larger ones after 100. Batches are
 * the chosen tuner's: both model pending suggestions by their predicted value, which spreads a batch
 * out.
 *
 * <p>Resume by replay: the choice is a function of the space and the number of results alone, and
 * the tuner handed over to receives every result through {@link Tuner#importData} in the order they
 * came, so a fresh instance given the same results in that order continues as the uninterrupted one
 * would.
 * Suggestions still running at a hand-over are not known to the next tuner until their results come.
 *
 * <p>Class arguments: {@code optimize_mode} (default {@code maximize}, as NNI's tuners) and
 * {@code seed}, passed on to the chosen tuner.
 */
final class AutoTuner implements Tuner {
    private static final System.Logger LOG = System.getLogger(AutoTuner.class.getName());

    /** Which algorithm searches a space, and when it hands over. */
    record Plan(String first, String then, int handOverAt) {
        /** Spaces of up to this many coordinates stay with the global Gaussian process. */
        static final int GLOBAL_DIMENSIONS = 6;
        /** Results per coordinate after which a larger space is handed to the trust region. */
        static final int RESULTS_PER_DIMENSION = 5;
        /** The most results a larger space waits for before the hand-over. */
        static final int MAX_HAND_OVER = 50;

        static Plan of(SearchSpace space) {
            EncodedSpace encoded = EncodedSpace.of(space);
            int d = encoded.size();
            boolean nested = encoded.dimensions().stream().anyMatch(x -> x.parent() >= 0);
            if (nested || d <= GLOBAL_DIMENSIONS) {
                return new Plan("GPTuner", null, Integer.MAX_VALUE);
            }
            return new Plan("GPTuner", "TuRBO", Math.min(RESULTS_PER_DIMENSION * d, MAX_HAND_OVER));
        }

        String at(int results) {
            return then != null && results >= handOverAt ? then : first;
        }
    }

    private final String mode;
    private final long seed;

    private TunerContext context;
    private SearchSpace space;
    private Plan plan;
    private String current;
    private Tuner tuner;
    /** Every result learnt, imported or received, in the order it came, for a hand-over. */
    private final List<ImportedTrial> results = new ArrayList<>();

    AutoTuner(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed");
        mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE) == OptimizeMode.MINIMIZE ? "minimize" : "maximize";
        var given = arguments.getOptionalLong("seed");
        seed = given.isPresent() ? given.getAsLong() : new SplittableRandom().nextLong();
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
        plan = Plan.of(newSpace);
        String next = plan.at(results.size());
        if (tuner != null && next.equals(current)) {
            tuner.updateSearchSpace(newSpace);
            return;
        }
        handOver(next);
    }

    private void handOver(String name) {
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
        if (current != null) {
            LOG.log(System.Logger.Level.INFO, "Auto: " + results.size() + " results in, " + name + " takes over from " + current);
        }
        tuner = next;
        current = name;
    }

    private void checkHandOver() {
        String next = plan.at(results.size());
        if (!next.equals(current)) {
            handOver(next);
        }
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
        checkHandOver();
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
        String next = plan.at(results.size());
        if (next.equals(current)) {
            tuner.importData(trials);
        } else {
            handOver(next);
        }
    }
}
