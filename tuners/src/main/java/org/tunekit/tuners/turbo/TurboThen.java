package org.tunekit.tuners.turbo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.TakesOverTrials;
import org.tunekit.tuners.unitcube.UnitCubeTuner;

/**
 * TuRBO's first trust region, then another tuner: suggestions are TuRBO's until its first region
 * collapses (where TuRBO would restart from a new design), and from that result on they are the
 * successor's, which is given every result so far through {@link Tuner#importData} in the order
 * they arrived, and each later result as it comes. A successor that {@link TakesOverTrials} also
 * takes over TuRBO's trials still running at the hand-over, so it neither suggests their parameter
 * sets again nor ignores them in its model.
 *
 * <p>The successor is created at the hand-over, so an experiment that never collapses runs TuRBO
 * alone. Resume needs no checkpoint: the results replayed through {@link #importData} bring TuRBO
 * to the same collapse and the successor to the same history.
 */
public final class TurboThen implements Tuner {
    private static final System.Logger LOG = System.getLogger(TurboThen.class.getName());
    private final TurboTuner turbo;
    private final Supplier<Tuner> successor;
    private final List<ImportedTrial> results = new ArrayList<>();
    private SearchSpace space;
    private TunerContext context;
    private Tuner after;

    private TurboThen(TurboTuner turbo, Supplier<Tuner> successor) {
        this.turbo = turbo;
        this.successor = successor;
    }

    /**
     * TuRBO of the given class arguments (as {@link TurboTunerProvider} takes them) until its first
     * region collapses, then the tuner {@code successor} makes.
     */
    public static Tuner create(ClassArguments arguments, Supplier<Tuner> successor) {
        return new TurboThen(TurboTuner.create(arguments), successor);
    }

    /** Whether the successor has taken over. */
    boolean handedOver() {
        return after != null;
    }

    private Tuner current() {
        return after != null ? after : turbo;
    }

    @Override
    public void open(TunerContext context) {
        this.context = context;
        current().open(context);
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        this.space = space;
        current().updateSearchSpace(space);
        if (after == null) {
            handOverIfCollapsed(); // results imported before the space reach TuRBO only now
        }
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        return current().generateParameters(parameterId);
    }

    @Override
    public Parameters generateParameters(long parameterId, String trialJobId) throws NoMoreTrialsException {
        return current().generateParameters(parameterId, trialJobId);
    }

    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        return current().generateMultipleParameters(parameterIds);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        if (after != null) {
            after.receiveTrialResult(result);
            return;
        }
        results.add(new ImportedTrial(result.parameters(), result.metric()));
        turbo.receiveTrialResult(result);
        handOverIfCollapsed();
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        current().trialEnd(parameterId, success);
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        for (int i = 0; i < trials.size(); i++) {
            if (after != null) {
                after.importData(trials.subList(i, trials.size()));
                return;
            }
            results.add(trials.get(i));
            turbo.importData(List.of(trials.get(i)));
            handOverIfCollapsed();
        }
    }

    private void handOverIfCollapsed() {
        if (turbo.restarts() == 0) {
            return;
        }
        LOG.log(System.Logger.Level.INFO, "TuRBO's first trust region collapsed at result " + results.size()
                + "; the next tuner goes on from all " + results.size() + " results");
        after = successor.get();
        if (context != null) {
            after.open(context);
        }
        if (space != null) {
            after.updateSearchSpace(space);
        }
        after.importData(List.copyOf(results));
        results.clear();
        if (after instanceof TakesOverTrials successor) {
            for (UnitCubeTuner.Proposal p : turbo.inFlight()) {
                successor.takeOver(p.parameterId(), p.parameters());
            }
        }
    }
}
