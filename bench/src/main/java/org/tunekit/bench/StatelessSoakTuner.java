package org.tunekit.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A tuner that keeps nothing from trial to trial, for {@code tunekit-bench bench-soak --tuner Stateless}:
 * it draws {@code x1} ... {@code x6} uniformly in [0, 1) (the soak's search space,
 * {@link DispatcherProcess#SPACE}) and ignores results, so that what grows in a soak is the
 * dispatcher's and the assessor's, not a tuner's history (every built-in tuner keeps one: Random and
 * GridSearch the points they gave, to avoid repeats, the model-based ones their observations).
 * Named by class in the experiment config, as NNI's {@code className}, with the benchmarks' jar
 * (or classes folder) as its {@code codeDirectory}: the {@code tunekit} command's class path does not
 * hold the benchmarks.
 */
public final class StatelessSoakTuner implements Tuner {
    private final SplittableRandom random = new SplittableRandom(0);

    /** Created by the dispatcher. */
    public StatelessSoakTuner() {}

    /** The experiment config's {@code tuner} entry that names this class, where the dispatcher can load it from. */
    static Map<String, Object> configEntry() {
        Path location;
        try {
            location = Path.of(StatelessSoakTuner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where " + StatelessSoakTuner.class.getName() + " was loaded from", e);
        }
        // a jar: the dispatcher loads every jar of its folder (bench/target holds only tunekit-bench.jar); a folder of classes: itself
        Path codeDirectory = Files.isDirectory(location) ? location : location.getParent();
        return Map.of("className", StatelessSoakTuner.class.getName(), "codeDirectory", codeDirectory.toString());
    }

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
