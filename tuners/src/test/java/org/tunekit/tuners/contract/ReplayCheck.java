package org.tunekit.tuners.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.SeenParameters;

/**
 * The resume-by-replay assertion for tuners that keep no checkpoint: an uninterrupted instance and a
 * fresh one that is given the same search space and then the uninterrupted one's results through
 * {@link Tuner#importData} (in trial order, as NNI's manager sends them on resume) make the same
 * suggestions for the same parameter ids, round after round, and the fresh one never suggests a
 * parameter set it has a result for while the space still has unseen ones.
 *
 * <p>Before the resume the uninterrupted instance runs rounds of {@code batch} suggestions; the
 * results of a round arrive in the reverse order of their ids, so that the check does not depend on
 * results coming in the order the suggestions were made. After it, both instances get every round's
 * results in that same order. The ids after the resume skip a few values, as a resumed manager's may.
 */
public final class ReplayCheck {
    private static final int ID_GAP = 3;

    private final Supplier<Tuner> factory;
    private final SearchSpace space;
    private final Function<Parameters, Metric> metric;
    private int batch = 1;

    private ReplayCheck(Supplier<Tuner> factory, SearchSpace space, Function<Parameters, Metric> metric) {
        this.factory = factory;
        this.space = space;
        this.metric = metric;
    }

    /** A check of the tuners {@code factory} makes (each call a fresh instance with the same arguments). */
    public static ReplayCheck of(Supplier<Tuner> factory, SearchSpace space, Function<Parameters, Metric> metric) {
        return new ReplayCheck(factory, space, metric);
    }

    /** Suggestions in rounds of {@code size} ids through {@code generateMultipleParameters} (1 by default). */
    public ReplayCheck inBatchesOf(int size) {
        this.batch = size;
        return this;
    }

    /**
     * Runs {@code before} results, resumes a fresh instance from them, and checks up to {@code after}
     * more suggestions of both (fewer when the space runs out, which both must then agree on).
     *
     * @return the fresh instance's suggestions after the resume, in id order
     */
    public List<Parameters> check(int before, int after) {
        Tuner uninterrupted = factory.get();
        uninterrupted.updateSearchSpace(space);
        List<ImportedTrial> results = new ArrayList<>();
        long id = 0;
        while (results.size() < before) {
            List<Long> ids = ids(id, Math.min(batch, before - results.size()));
            id += ids.size();
            List<Parameters> suggested = uninterrupted.generateMultipleParameters(ids);
            assertThat(suggested).as("suggestions for ids %s before the resume", ids).hasSize(ids.size());
            report(List.of(uninterrupted), ids, suggested);
            for (Parameters p : suggested) {
                results.add(new ImportedTrial(p, metric.apply(p)));
            }
        }
        Tuner resumed = factory.get();
        resumed.updateSearchSpace(space);
        resumed.importData(results);

        Set<String> withResults = new HashSet<>();
        for (ImportedTrial t : results) {
            withResults.add(SeenParameters.keyOf(t.parameters()));
        }
        OptionalLong size = space.size();
        id += ID_GAP;
        List<Parameters> afterResume = new ArrayList<>();
        while (afterResume.size() < after) {
            List<Long> ids = ids(id, Math.min(batch, after - afterResume.size()));
            id += ids.size();
            List<Parameters> expected = uninterrupted.generateMultipleParameters(ids);
            List<Parameters> actual = resumed.generateMultipleParameters(ids);
            assertThat(actual).as("after replaying %d results, the suggestions for ids %s", before, ids).isEqualTo(expected);
            for (Parameters p : actual) {
                boolean unseenLeft = size.isEmpty() || size.getAsLong() > withResults.size();
                if (unseenLeft) {
                    assertThat(withResults).as("a suggestion after the resume repeats a parameter set with a result: %s", p.values())
                            .doesNotContain(SeenParameters.keyOf(p));
                }
            }
            report(List.of(uninterrupted, resumed), ids.subList(0, actual.size()), actual);
            afterResume.addAll(actual);
            for (Parameters p : actual) {
                withResults.add(SeenParameters.keyOf(p));
            }
            if (actual.size() < ids.size()) {
                break;
            }
        }
        return afterResume;
    }

    private static List<Long> ids(long first, int count) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(first + i);
        }
        return ids;
    }

    /** Reports a round's results to every tuner, last id first, and ends each trial. */
    private void report(List<Tuner> tuners, List<Long> ids, List<Parameters> suggested) {
        for (int i = suggested.size() - 1; i >= 0; i--) {
            Metric m = metric.apply(suggested.get(i));
            for (Tuner t : tuners) {
                t.receiveTrialResult(new TrialResult(ids.get(i), suggested.get(i), m, false, "trial" + ids.get(i)));
                t.trialEnd(ids.get(i), true);
            }
        }
    }
}
