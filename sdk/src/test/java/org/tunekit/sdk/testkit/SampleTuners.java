package org.tunekit.sdk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.space.Uniform;

/** Small tuners for testing the test kit: one correct, the others each breaking one rule. */
final class SampleTuners {
    private SampleTuners() {}

    /**
     * Suggestion {@code id} is drawn from a generator seeded by the seed and the id, redrawn while it
     * repeats an earlier one; its state is the set of suggestions made. No checkpoint.
     */
    abstract static class DrawingTuner implements Tuner {
        final long seed;
        SearchSpace space;
        EncodedSpace encoded;
        final Set<String> seen = new HashSet<>();
        private SplittableRandom stream;

        DrawingTuner(ClassArguments args) {
            args.requireOnly("seed", "optimize_mode");
            this.seed = args.getLong("seed", 0);
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            this.space = space;
            this.encoded = EncodedSpace.of(space);
        }

        SplittableRandom rng(long parameterId) {
            return new SplittableRandom(seed * 1_000_003L + parameterId);
        }

        /** The next generator of one stream seeded at the first draw: what a resume restarts. */
        final SplittableRandom nextOfOneStream() {
            if (stream == null) {
                stream = new SplittableRandom(seed);
            }
            return stream.split();
        }

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            OptionalLong size = space.size();
            if (size.isPresent() && seen.size() >= size.getAsLong()) {
                throw new NoMoreTrialsException("all " + size.getAsLong() + " parameter sets were suggested");
            }
            SplittableRandom rng = rng(parameterId);
            for (int attempt = 0; attempt < 100_000; attempt++) {
                Parameters p = draw(rng);
                if (seen.add(Arrays.toString(encoded.encode(p)))) {
                    return p;
                }
            }
            throw new NoMoreTrialsException("no unseen parameter set found");
        }

        Parameters draw(SplittableRandom rng) {
            return space.sample(rng);
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            if (result.customized() || result.trialJobId() == null) {
                throw new IllegalStateException("the driver must report generated trials with a job id");
            }
        }
    }

    /** A correct random tuner, which keeps the set of suggestions made in a checkpoint of its own. */
    static class RandomTuner extends DrawingTuner {
        RandomTuner(ClassArguments args) {
            super(args);
        }

        @Override
        public void saveCheckpoint(Path directory) throws IOException {
            Files.write(directory.resolve("seen.txt"), seen);
        }

        @Override
        public void loadCheckpoint(Path directory) throws IOException {
            seen.addAll(Files.readAllLines(directory.resolve("seen.txt")));
        }
    }

    /** Adds 1 beyond the upper bound of every top-level uniform parameter. */
    static final class OutOfSpaceTuner extends RandomTuner {
        OutOfSpaceTuner(ClassArguments args) {
            super(args);
        }

        @Override
        Parameters draw(SplittableRandom rng) {
            Map<String, Object> values = new LinkedHashMap<>(super.draw(rng).values());
            for (Parameter p : space.parameters()) {
                if (p instanceof Uniform u && u.q() == 0) {
                    values.put(p.name(), u.high() + 1);
                }
            }
            return Parameters.of(values);
        }
    }

    /** Seeds from the clock, so that two instances with the same seed differ. */
    static final class UnseededTuner extends RandomTuner {
        private final SplittableRandom shared = new SplittableRandom();

        UnseededTuner(ClassArguments args) {
            super(args);
        }

        @Override
        SplittableRandom rng(long parameterId) {
            return shared.split();
        }
    }

    /** Reproducible, but the same whatever its seed. */
    static final class FixedSeedTuner extends RandomTuner {
        FixedSeedTuner(ClassArguments args) {
            super(args);
        }

        @Override
        SplittableRandom rng(long parameterId) {
            return new SplittableRandom(42 + parameterId);
        }
    }

    /** Answers a batch with one parameter set repeated. */
    static final class BatchDuplicatingTuner extends RandomTuner {
        BatchDuplicatingTuner(ClassArguments args) {
            super(args);
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
            try {
                Parameters p = generateParameters(parameterIds.get(0));
                return java.util.Collections.nCopies(parameterIds.size(), p);
            } catch (NoMoreTrialsException e) {
                return List.of();
            }
        }
    }

    /** Draws from one seeded stream but saves nothing in its checkpoint. */
    static final class ForgetfulTuner extends RandomTuner {
        ForgetfulTuner(ClassArguments args) {
            super(args);
        }

        @Override
        SplittableRandom rng(long parameterId) {
            return nextOfOneStream();
        }

        @Override
        public void saveCheckpoint(Path directory) {}

        @Override
        public void loadCheckpoint(Path directory) {}
    }

    /**
     * Keeps no checkpoint: a resume gives it every earlier result through importData, from which it
     * rebuilds the suggestions it has made.
     */
    static class ReplayedTuner extends DrawingTuner {
        ReplayedTuner(ClassArguments args) {
            super(args);
        }

        @Override
        public void importData(List<org.tunekit.sdk.ImportedTrial> trials) {
            trials.forEach(t -> seen.add(Arrays.toString(encoded.encode(t.parameters()))));
        }
    }

    /** Keeps no checkpoint and ignores imported results: after a resume it repeats what it made before. */
    static final class ImportIgnoringTuner extends ReplayedTuner {
        ImportIgnoringTuner(ClassArguments args) {
            super(args);
        }

        @Override
        public void importData(List<org.tunekit.sdk.ImportedTrial> trials) {}
    }

    /** Keeps no checkpoint and draws every suggestion from one running stream, which a resume restarts. */
    static final class StreamReplayedTuner extends ReplayedTuner {
        StreamReplayedTuner(ClassArguments args) {
            super(args);
        }

        @Override
        SplittableRandom rng(long parameterId) {
            return nextOfOneStream();
        }
    }

    /** Samples with replacement and never runs out, like a plain random search. */
    static final class WithReplacementTuner extends RandomTuner {
        private SplittableRandom stream;

        WithReplacementTuner(ClassArguments args) {
            super(args);
        }

        @Override
        public Parameters generateParameters(long parameterId) {
            if (stream == null) {
                stream = new SplittableRandom(seed);
            }
            return space.sample(stream);
        }
    }
}
