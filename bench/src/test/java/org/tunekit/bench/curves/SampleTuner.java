package org.tunekit.bench.curves;

import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/** A tuner for the tests: samples the space with a generator seeded by the constructor. */
final class SampleTuner implements Tuner {
    private final SplittableRandom random;
    private SearchSpace space;
    /** The results received, in order. */
    final java.util.List<TrialResult> results = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    SampleTuner(long seed) {
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        this.space = space;
    }

    @Override
    public Parameters generateParameters(long parameterId) {
        return space.sample(random);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        results.add(result);
    }
}
