package org.tunekit.it;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Equality of JSON values as the vectors define it: objects by keys (order free), lists in order,
 * numbers by value ({@code 11} equals {@code 11.0}; non-integers may differ in the last bits,
 * relative 1e-12, since math libraries differ there).
 */
final class JsonComparison {
    private JsonComparison() {}

    /** Where {@code actual} differs from {@code expected}, or empty when they are equal. */
    static Optional<String> difference(Object expected, Object actual, String path) {
        if (expected instanceof Number e && actual instanceof Number a) {
            double x = e.doubleValue();
            double y = a.doubleValue();
            if (x == y || Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y))) {
                return Optional.empty();
            }
            return Optional.of(path + ": expected " + expected + ", got " + actual);
        }
        if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            if (!e.keySet().equals(a.keySet())) {
                return Optional.of(path + ": expected keys " + e.keySet() + ", got " + a.keySet());
            }
            for (Object k : e.keySet()) {
                Optional<String> d = difference(e.get(k), a.get(k), path + "." + k);
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            if (e.size() != a.size()) {
                return Optional.of(path + ": expected " + e.size() + " items, got " + a.size() + ": " + a);
            }
            Iterator<?> i = e.iterator();
            Iterator<?> j = a.iterator();
            int n = 0;
            while (i.hasNext()) {
                Optional<String> d = difference(i.next(), j.next(), path + "[" + n++ + "]");
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        if (expected == null ? actual == null : expected.equals(actual)) {
            return Optional.empty();
        }
        return Optional.of(path + ": expected " + expected + ", got " + actual);
    }
}
