package org.tunekit.bench.testing;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * A test tuner that the tests pack into a plugin jar: samples the prior with a generator seeded by
 * {@code seed} (required) plus {@code offset}, and insists on {@code optimize_mode: minimize}.
 */
public final class BenchSamplerProvider implements TunerProvider {
    @Override
    public String name() {
        return "BenchSampler";
    }

    @Override
    public List<String> aliases() {
        return List.of("bench_sampler");
    }

    @Override
    public Tuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed", "offset");
        if (!"minimize".equals(arguments.getString("optimize_mode", null))) {
            throw new InvalidClassArgumentException("class argument 'optimize_mode' must be minimize here");
        }
        if (!arguments.has("seed")) {
            throw new InvalidClassArgumentException("class argument 'seed' is required here");
        }
        SplittableRandom rng = new SplittableRandom(arguments.getLong("seed", 0) + arguments.getLong("offset", 0));
        return new Tuner() {
            private SearchSpace space;

            @Override
            public void updateSearchSpace(SearchSpace s) {
                space = s;
            }

            @Override
            public Parameters generateParameters(long parameterId) {
                return space.sample(rng);
            }

            @Override
            public void receiveTrialResult(TrialResult result) {}
        };
    }
}
