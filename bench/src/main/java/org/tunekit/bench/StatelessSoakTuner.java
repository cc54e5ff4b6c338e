package org.tunekit.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A tuner that keeps nothing from trial to trial, for {@code tunekit bench-soak --tuner Stateless}:
 * it draws {@code x1} ... {@code x6} uniformly in [0, 1) (the soak's search space,
 * {@link DispatcherProcess#SPACE}) and ignores results, so that what grows in a soak is the
 * dispatcher's and the assessor's, not a tuner's history (every built-in tuner keeps one: Random and
 * GridSearch the points they gave, to avoid repeats, the model-based ones their observations).
 * Named by class in the experiment config, as NNI's {@code className}.
 */
public final class StatelessSoakTuner implements Tuner {
    private final SplittableRandom random = new SplittableRandom(0);

    /** Created by the dispatcher. */
    public StatelessSoakTuner() {}

    @Override
    public void updateSearchSpace(SearchSpace space) {}

    @Override
    public Parameters generateParameters(long parameterId) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 1; i <= 6; i++) {
            values.put("x" + i, random.nextDouble());
        }
        return Parameters.of(values);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {}
}
