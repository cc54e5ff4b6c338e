package org.tunekit.sdk.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.internal.OwnCheckpoint;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

/**
 * {@link Check#RESUME}: a fresh instance, resumed as the dispatcher resumes a tuner after its
 * process was killed, carries on as if nothing had happened. A tuner that implements
 * {@link Tuner#loadCheckpoint} is resumed from the checkpoint the uninterrupted instance saves; any
 * other tuner gets every earlier result through {@link Tuner#importData}, in trial order, as a
 * manager replays them. Then, for the same parameter ids and the same results, both instances must
 * suggest the same parameter sets, one at a time and in a batch; and on a finite space the resumed
 * instance must not suggest again a set it has a result for.
 */
final class ResumeCheck {
    static final int BEFORE = 5;
    static final int AFTER = 5;
    static final int BATCH = 4;

    private final Function<String, Tuner> create;

    /** @param create makes a fresh tuner, naming the check's context in its errors */
    ResumeCheck(Function<String, Tuner> create) {
        this.create = create;
    }

    /** The same suggestions after a resume as without one. */
    void continuesTheSequence(SearchSpace space, String context) {
        ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(space);
        TunerDriver original = new TunerDriver(create.apply(context), space, context).start();
        List<TunerDriver.Suggestion> done = original.run(BEFORE, 1, metric);
        if (original.exhausted()) {
            return;
        }
        withResumed(original, done, space, metric, context, resumed -> {
            for (int i = 0; i < AFTER + BATCH; i += i < AFTER ? 1 : BATCH) {
                int count = i < AFTER ? 1 : BATCH;
                List<TunerDriver.Suggestion> a = original.suggest(count);
                List<TunerDriver.Suggestion> b = resumed.suggest(count);
                compare(a, b, context);
                if (a.isEmpty()) {
                    return;
                }
                for (int k = 0; k < a.size(); k++) {
                    double v = metric.applyAsDouble(a.get(k).parameters());
                    original.report(a.get(k), v);
                    resumed.report(b.get(k), v);
                }
            }
        });
    }

    /** On a finite space, nothing the tuner has a result for is suggested again after a resume. */
    void repeatsNothing(SearchSpace finite, String context) {
        long size = finite.size().orElseThrow();
        ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(finite);
        TunerDriver original = new TunerDriver(create.apply(context), finite, context).start();
        List<TunerDriver.Suggestion> done = original.run((int) size / 2, 1, metric);
        if (original.exhausted()) {
            return;
        }
        EncodedSpace encoded = EncodedSpace.of(finite);
        Map<String, Long> earlier = new HashMap<>();
        done.forEach(s -> earlier.put(Arrays.toString(encoded.encode(s.parameters())), s.parameterId()));
        withResumed(original, done, finite, metric, context, resumed -> {
            for (TunerDriver.Suggestion s : resumed.run((int) (size - done.size()), 1, metric)) {
                Long before = earlier.get(Arrays.toString(encoded.encode(s.parameters())));
                if (before != null) {
                    throw new AssertionError(context + ": after the resume parameter id " + s.parameterId() + " got "
                            + s.parameters().values() + " again, which parameter id " + before + " had before it and whose result "
                            + "the resumed instance was given, while unseen parameter sets remained");
                }
            }
        });
    }

    /**
     * Makes a fresh instance resumed where {@code original} stands after {@code done} and hands it to
     * {@code then}; its ids go on after the original's.
     */
    private void withResumed(TunerDriver original, List<TunerDriver.Suggestion> done, SearchSpace space,
            ToDoubleFunction<Parameters> metric, String context, java.util.function.Consumer<TunerDriver> then) {
        Tuner fresh = create.apply(context);
        Path dir = null;
        try {
            TunerDriver resumed;
            if (OwnCheckpoint.kept(fresh)) {
                dir = Files.createTempDirectory("tunekit-checkpoint");
                try {
                    original.tuner().saveCheckpoint(dir);
                } catch (IOException | RuntimeException x) {
                    throw new AssertionError(context + ": saveCheckpoint after " + done.size() + " results failed: " + x, x);
                }
                try {
                    fresh.loadCheckpoint(dir);
                } catch (IOException | RuntimeException x) {
                    throw new AssertionError(context + ": loadCheckpoint into a fresh instance failed: " + x, x);
                }
                resumed = new TunerDriver(fresh, space, context + " (instance resumed from its checkpoint)").start();
            } else {
                resumed = new TunerDriver(fresh, space, context + " (instance resumed from " + done.size() + " imported results)").start();
                List<ImportedTrial> results = new ArrayList<>(done.size());
                for (TunerDriver.Suggestion s : done) {
                    results.add(new ImportedTrial(s.parameters(), Metric.of(metric.applyAsDouble(s.parameters())),
                            Map.of("trialJobId", TunerDriver.trialJobId(s.parameterId()))));
                }
                resumed.importData(results);
            }
            while (resumed.nextId() < original.nextId()) {
                resumed.skipId();
            }
            then.accept(resumed);
        } catch (IOException x) {
            throw new UncheckedIOException("cannot create a temporary checkpoint directory", x);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void compare(List<TunerDriver.Suggestion> a, List<TunerDriver.Suggestion> b, String context) {
        String ids = a.isEmpty() && b.isEmpty() ? "" : " for parameter id" + (Math.max(a.size(), b.size()) > 1 ? "s " : " ")
                + (a.isEmpty() ? b : a).stream().map(s -> String.valueOf(s.parameterId())).reduce((x, y) -> x + ", " + y).orElse("");
        if (!values(a).equals(values(b))) {
            throw new AssertionError(context + ":" + ids + " the uninterrupted instance suggested " + (a.isEmpty() ? "nothing (no more trials)" : values(a))
                    + " but the resumed one " + (b.isEmpty() ? "nothing (no more trials)" : values(b))
                    + " (what it was resumed from does not hold all of its state, or it draws its randomness from something other than"
                    + " the seed and the parameter id)");
        }
    }

    private static List<Map<String, Object>> values(List<TunerDriver.Suggestion> s) {
        return s.stream().map(x -> x.parameters().values()).toList();
    }

    static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // a leftover temporary file is harmless
                }
            });
        } catch (IOException ignored) {
            // as above
        }
    }
}
