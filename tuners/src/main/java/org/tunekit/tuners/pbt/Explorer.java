package org.tunekit.tuners.pbt;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.RandInt;
import org.tunekit.sdk.space.SearchSpace;

/**
 * PBT's explore step: a copied parameter set is perturbed, parameter by parameter in the space's
 * order.
 *
 * <ul>
 *   <li>With probability {@code resampleProbability} a parameter is drawn afresh from its prior (a
 *       nested choice with its sub-space); a value the parameter cannot take is drawn afresh too.</li>
 *   <li>Otherwise a number is multiplied by {@code 1 - factor} or {@code 1 + factor} (each with
 *       probability 1/2), then quantised and clipped as the parameter's type demands ({@code randint}
 *       rounds to the nearest integer in {@code [low, high)}). When rounding or quantising would give
 *       back the value it started from, the value moves by one step ({@code 1}, or {@code q}) in the
 *       chosen direction instead, so small integers and coarse grids still move; a step that would
 *       leave the range stays at the bound.</li>
 *   <li>A categorical value that is not redrawn stays; if it is a nested option, its sub-parameters
 *       are explored by the same rules.</li>
 * </ul>
 *
 * <p>The random numbers drawn depend only on the space and the values, so the same generator state
 * gives the same result.
 */
final class Explorer {
    private final double factor;
    private final double resampleProbability;

    Explorer(double factor, double resampleProbability) {
        this.factor = factor;
        this.resampleProbability = resampleProbability;
    }

    /** The explored copy of {@code values}; keys that are not parameters of {@code space} are dropped. */
    Parameters explore(SearchSpace space, Parameters values, RandomGenerator rng) {
        return Parameters.of(exploreAll(space, values.values(), rng));
    }

    private Map<String, Object> exploreAll(SearchSpace space, Map<String, Object> values, RandomGenerator rng) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Parameter p : space.parameters()) {
            out.put(p.name(), exploreValue(p, values.get(p.name()), rng));
        }
        return out;
    }

    /** One parameter's explored value. */
    Object exploreValue(Parameter p, Object current, RandomGenerator rng) {
        boolean resample = rng.nextDouble() < resampleProbability;
        if (resample || current == null || !p.accepts(current)) {
            return p.sample(rng);
        }
        if (p instanceof Choice c) {
            Choice.Option option = c.options().get(c.indexOf(current));
            if (!option.nested()) {
                return current;
            }
            Map<String, Object> sub = new LinkedHashMap<>();
            ((Map<?, ?>) current).forEach((k, v) -> {
                if (!"_name".equals(k)) {
                    sub.put((String) k, v);
                }
            });
            return Choice.nestedValue(option, Parameters.of(exploreAll(option.subspace(), sub, rng)));
        }
        boolean up = rng.nextBoolean();
        double multiplier = up ? 1 + factor : 1 - factor;
        if (p instanceof RandInt r) {
            long x = ((Number) current).longValue();
            long y = Math.round(x * multiplier);
            if (y == x) {
                y = up ? x + 1 : x - 1;
            }
            return Math.max(r.low(), Math.min(r.high() - 1, y));
        }
        Continuous c = (Continuous) p;
        double x = ((Number) current).doubleValue();
        double y = c.quantize(x * multiplier);
        if (c.q() > 0 && y == x) {
            y = c.quantize(x + (up ? c.q() : -c.q()));
        }
        if (!c.accepts(y)) {
            // a log-scale value quantised to 0 cannot step below it; keep what it was
            return x;
        }
        return y;
    }
}
