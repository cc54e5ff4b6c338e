package org.tunekit.tuners.pbt;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;

/**
 * The class arguments of {@code PBTTuner}, checked.
 *
 * @param mode                whether larger or smaller metrics are better ({@code optimize_mode})
 * @param checkpointRoot      the absolute directory the members' checkpoint directories go under
 *                            ({@code all_checkpoint_dir}, else {@code $NNI_CHECKPOINT_DIRECTORY/pbt}),
 *                            or {@code null} for a fresh temporary directory made on first use
 * @param populationSize      members per round ({@code population_size}), at least 2
 * @param factor              the perturbation factor: numbers are multiplied by {@code 1 - factor} or
 *                            {@code 1 + factor} ({@code factor}, in [0, 1))
 * @param resampleProbability the probability that exploration draws a value afresh from the prior
 *                            ({@code resample_probability}, in [0, 1])
 * @param fraction            the share of the population that exploits, and the share it copies from
 *                            ({@code fraction}, in [0, 0.5])
 * @param seed                the seed of all randomness ({@code seed}; a random one, logged, when absent)
 */
record PbtSettings(OptimizeMode mode, Path checkpointRoot, int populationSize, double factor,
                   double resampleProbability, double fraction, long seed) {

    static final String ENV_CHECKPOINT_DIRECTORY = "NNI_CHECKPOINT_DIRECTORY";
    private static final System.Logger LOG = System.getLogger(PbtSettings.class.getName());

    /** Reads and checks the class arguments; {@code env} supplies {@code NNI_CHECKPOINT_DIRECTORY}. */
    static PbtSettings from(ClassArguments arguments, Map<String, String> env) {
        arguments.requireOnly("optimize_mode", "all_checkpoint_dir", "population_size", "factor",
                "resample_probability", "fraction", "seed");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        Path root;
        String dir = arguments.getString("all_checkpoint_dir", null);
        if (dir != null) {
            if (dir.isBlank()) {
                throw new InvalidClassArgumentException("class argument 'all_checkpoint_dir' must be a directory path, got \"" + dir + "\"");
            }
            root = Path.of(expandHome(dir)).toAbsolutePath().normalize();
        } else {
            String nni = env.get(ENV_CHECKPOINT_DIRECTORY);
            root = nni == null || nni.isBlank() ? null : Path.of(nni, "pbt").toAbsolutePath().normalize();
        }
        int population = arguments.getInt("population_size", 10, 2);
        double factor = arguments.getDouble("factor", 0.2, 0, 1);
        if (factor >= 1) {
            throw new InvalidClassArgumentException("class argument 'factor' must be below 1 (1 - factor multiplies values), got " + factor);
        }
        double resample = arguments.getDouble("resample_probability", 0.25, 0, 1);
        double fraction = arguments.getDouble("fraction", 0.2, 0, 0.5);
        OptionalLong given = arguments.getOptionalLong("seed");
        long seed;
        if (given.isPresent()) {
            seed = given.getAsLong();
        } else {
            seed = new SplittableRandom().nextLong();
            LOG.log(System.Logger.Level.INFO, "PBTTuner: no seed given, using seed " + seed);
        }
        return new PbtSettings(mode, root, population, factor, resample, fraction, seed);
    }

    private static String expandHome(String dir) {
        if (dir.equals("~") || dir.startsWith("~/")) {
            return System.getProperty("user.home") + dir.substring(1);
        }
        return dir;
    }

    /**
     * How many members of a population of {@code size} exploit in each round, and how many they copy
     * from: {@code fraction} of it rounded up (at least one unless {@code fraction} is 0), at most half.
     */
    int exploitCount(int size) {
        if (fraction == 0) {
            return 0;
        }
        int k = (int) Math.ceil(fraction * size - 1e-9);
        return Math.min(size / 2, Math.max(1, k));
    }
}
