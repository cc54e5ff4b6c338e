package org.tunekit.bench.quality;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A deterministic test tuner: draws each parameter set from the prior with a generator seeded by
 * its seed, stops after {@code limit} sets, and records every call it receives.
 */
class SamplingTestTuner implements Tuner {
    final List<String> calls = new ArrayList<>();
    final List<TrialResult> results = new ArrayList<>();
    private final SplittableRandom rng;
    private final long limit;
    private SearchSpace space;
    private long produced;

    SamplingTestTuner(long seed, long limit) {
        this.rng = new SplittableRandom(seed);
        this.limit = limit;
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        calls.add("updateSearchSpace");
        this.space = space;
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        calls.add("generateParameters(" + parameterId + ")");
        return next();
    }

    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        calls.add("generateMultipleParameters(" + parameterIds + ")");
        List<Parameters> out = new ArrayList<>();
        for (int i = 0; i < parameterIds.size(); i++) {
            try {
                out.add(next());
            } catch (NoMoreTrialsException e) {
                break;
            }
        }
        return out;
    }

    private Parameters next() throws NoMoreTrialsException {
        if (produced >= limit) {
            throw new NoMoreTrialsException("limit of " + limit + " reached");
        }
        produced++;
        return space.sample(rng);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        calls.add("receiveTrialResult(" + result.parameterId() + ")");
        results.add(result);
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        calls.add("trialEnd(" + parameterId + ", " + success + ")");
    }
}
