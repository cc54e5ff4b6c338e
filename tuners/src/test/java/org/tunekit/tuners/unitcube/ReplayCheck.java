package org.tunekit.tuners.unitcube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The resume model's two promises, as plain assertions until the SDK's test kit checks them: a
 * fresh tuner given the results of a run through {@code importData} makes the same suggestions for
 * the same ids as the tuner that ran them (round after round, when both then get the same results),
 * and after a replay it never suggests a set it has a result for while a finite space has others.
 *
 * <p>Ids go up by one within a round and skip two between rounds, as a dispatcher's ids may; the
 * results of a round arrive last suggestion first, and are imported in that order.
 */
public final class ReplayCheck {
    private final Supplier<Tuner> create;
    private final SearchSpace space;
    private final Function<Parameters, Metric> metric;
    private final int batch;
    private long nextId = 1;

    /**
     * @param create a fresh tuner, the same arguments and seed each time
     * @param batch  suggestions per round: 1 for {@code generateParameters}, more for {@code generateMultipleParameters}
     */
    public ReplayCheck(Supplier<Tuner> create, SearchSpace space, Function<Parameters, Metric> metric, int batch) {
        this.create = create;
        this.space = space;
        this.metric = metric;
        this.batch = batch;
    }

    /**
     * Runs one tuner for {@code before} rounds, replays its results into a fresh one, then runs
     * both for {@code after} rounds, asserting the same suggestions in every round.
     *
     * @return the number of suggestions compared
     */
    public int assertReplayContinuesTheRun(int before, int after) {
        Tuner original = create.get();
        original.updateSearchSpace(space);
        List<ImportedTrial> history = new ArrayList<>();
        for (int r = 0; r < before; r++) {
            List<Long> ids = ids();
            List<Parameters> suggested = suggest(original, ids);
            assertThat(suggested).as("round %d of the first run", r).isNotEmpty();
            report(original, ids, suggested, history);
        }
        Tuner replayed = replay(history);
        int compared = 0;
        for (int r = 0; r < after; r++) {
            List<Long> ids = ids();
            List<Parameters> expected = suggest(original, ids);
            List<Parameters> actual = suggest(replayed, ids);
            assertThat(actual).as("round %d after a replay of %d results, ids %s", r, history.size(), ids).isEqualTo(expected);
            compared += expected.size();
            report(original, ids, expected, history);
            report(replayed, ids, actual, new ArrayList<>());
        }
        return compared;
    }

    /**
     * Runs one tuner for {@code before} rounds in a finite space, replays its results into a fresh
     * one and lets that one suggest until it runs out: it must suggest every set it has no result
     * for, each once, and none it has a result for.
     */
    public void assertReplayNeverRepeatsAResult(int before, long spaceSize) {
        Tuner original = create.get();
        original.updateSearchSpace(space);
        List<ImportedTrial> history = new ArrayList<>();
        for (int r = 0; r < before; r++) {
            List<Long> ids = ids();
            report(original, ids, suggest(original, ids), history);
        }
        Set<Parameters> observed = new HashSet<>();
        history.forEach(t -> observed.add(t.parameters()));
        Tuner replayed = replay(history);
        List<Parameters> after = new ArrayList<>();
        for (int r = 0; r < spaceSize + 2; r++) {
            List<Long> ids = ids();
            List<Parameters> suggested = suggest(replayed, ids);
            if (suggested.isEmpty()) {
                break;
            }
            after.addAll(suggested);
            report(replayed, ids, suggested, new ArrayList<>());
        }
        assertThat(after).as("after a replay of %s", observed).doesNotHaveDuplicates().doesNotContainAnyElementsOf(observed)
                .hasSize((int) (spaceSize - observed.size()));
    }

    private Tuner replay(List<ImportedTrial> history) {
        Tuner replayed = create.get();
        replayed.updateSearchSpace(space);
        replayed.importData(List.copyOf(history));
        return replayed;
    }

    private List<Long> ids() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            ids.add(nextId++);
        }
        nextId += 2;
        return ids;
    }

    private static List<Parameters> suggest(Tuner tuner, List<Long> ids) {
        if (ids.size() > 1) {
            return tuner.generateMultipleParameters(ids);
        }
        try {
            return List.of(tuner.generateParameters(ids.get(0)));
        } catch (NoMoreTrialsException e) {
            return List.of();
        }
    }

    private void report(Tuner tuner, List<Long> ids, List<Parameters> suggested, List<ImportedTrial> history) {
        for (int i = suggested.size() - 1; i >= 0; i--) { // a batch's results come back in another order than asked
            Parameters p = suggested.get(i);
            Metric m = metric.apply(p);
            tuner.receiveTrialResult(new TrialResult(ids.get(i), p, m, false, "trial" + ids.get(i)));
            tuner.trialEnd(ids.get(i), true);
            history.add(new ImportedTrial(p, m));
        }
    }
}
