package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.RandInt;
import org.tunekit.sdk.space.SearchSpace;

/** The parameter sets of a finite search space, for the last resort of finding one not known yet. */
final class FiniteSpace {
    /** The largest space that is enumerated. */
    static final long MAX_ENUMERATION = 1_000_000;

    private FiniteSpace() {}

    /**
     * Every parameter set of a finite space, in definition order. A quantised parameter takes every
     * value its quantisation gives over its range, whatever {@link SearchSpace#size()} says.
     */
    static List<Parameters> enumerate(SearchSpace s) {
        List<Map<String, Object>> sets = new ArrayList<>();
        sets.add(new LinkedHashMap<>());
        for (Parameter p : s.parameters()) {
            List<Object> values = valuesOf(p);
            List<Map<String, Object>> next = new ArrayList<>(sets.size() * values.size());
            for (Map<String, Object> partial : sets) {
                for (Object v : values) {
                    Map<String, Object> m = new LinkedHashMap<>(partial);
                    m.put(p.name(), v);
                    next.add(m);
                }
            }
            sets = next;
        }
        List<Parameters> out = new ArrayList<>(sets.size());
        for (Map<String, Object> m : sets) {
            out.add(Parameters.of(m));
        }
        return out;
    }

    private static List<Object> valuesOf(Parameter p) {
        List<Object> values = new ArrayList<>();
        if (p instanceof Choice c) {
            for (Choice.Option o : c.options()) {
                if (o.nested()) {
                    for (Parameters sub : enumerate(o.subspace())) {
                        values.add(Choice.nestedValue(o, sub));
                    }
                } else {
                    values.add(o.value());
                }
            }
        } else if (p instanceof RandInt r) {
            for (long v = r.low(); v < r.high(); v++) {
                values.add(v);
            }
        } else {
            Continuous c = (Continuous) p;
            Set<Double> distinct = new LinkedHashSet<>();
            long lo = (long) Math.floor(c.low() / c.q()) - 1;
            long hi = (long) Math.ceil(c.high() / c.q()) + 1;
            for (long k = lo; k <= hi; k++) {
                distinct.add(c.quantize(k * c.q()) + 0.0);
            }
            values.addAll(distinct);
        }
        return values;
    }
}
