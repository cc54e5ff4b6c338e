package org.tunekit.sdk.space;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.Parameters;

/**
 * A search space in NNI's format, parsed and validated once: parameter name to
 * {@code {"_type": T, "_value": [...]}}. Immutable; safe to share between threads.
 */
public final class SearchSpace {
    /** The largest integer a JSON number (a double) holds exactly: randint's bounds stay within it. */
    private static final double EXACT_INTEGER = 9007199254740992.0;

    /** NNI's ten parameter types. */
    public static final Set<String> TYPES = Set.of("choice", "randint", "uniform", "quniform", "loguniform",
            "qloguniform", "normal", "qnormal", "lognormal", "qlognormal");

    private final List<Parameter> parameters;
    private final Map<String, Parameter> byName;
    private final Map<String, Object> definition;

    private SearchSpace(List<Parameter> parameters, Map<String, Object> definition) {
        this.parameters = List.copyOf(parameters);
        Map<String, Parameter> m = new LinkedHashMap<>();
        for (Parameter p : parameters) {
            m.put(p.name(), p);
        }
        this.byName = Collections.unmodifiableMap(m);
        this.definition = definition;
    }

    /**
     * Parses NNI's search-space JSON, given as plain Java values (maps, lists, numbers, strings).
     *
     * @throws InvalidSearchSpaceException naming the parameter path and the problem
     */
    public static SearchSpace parse(Map<String, ?> definition) {
        if (definition == null) {
            throw new InvalidSearchSpaceException("", "the search space must be a JSON object, got null");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> def = (Map<String, Object>) JsonValues.immutableCopy(definition);
        return parseObject(def, "");
    }

    /** The empty search space. */
    public static SearchSpace empty() {
        return new SearchSpace(List.of(), Map.of());
    }

    private static SearchSpace parseObject(Map<String, Object> def, String prefix) {
        List<Parameter> params = new ArrayList<>();
        for (Map.Entry<String, Object> e : def.entrySet()) {
            String path = prefix + e.getKey();
            params.add(parseParameter(e.getKey(), path, e.getValue()));
        }
        return new SearchSpace(params, def);
    }

    private static Parameter parseParameter(String name, String path, Object spec) {
        if (name.isEmpty()) {
            throw new InvalidSearchSpaceException(path, "parameter names must not be empty");
        }
        if (!(spec instanceof Map<?, ?> m)) {
            throw new InvalidSearchSpaceException(path, "expected an object {\"_type\": ..., \"_value\": [...]}, got "
                    + JsonValues.describe(spec));
        }
        for (Object k : m.keySet()) {
            if (!"_type".equals(k) && !"_value".equals(k)) {
                throw new InvalidSearchSpaceException(path, "unexpected key \"" + k + "\" (only \"_type\" and \"_value\" are allowed)");
            }
        }
        Object typeObj = m.get("_type");
        if (!(typeObj instanceof String type)) {
            throw new InvalidSearchSpaceException(path, typeObj == null ? "missing \"_type\""
                    : "\"_type\" must be a string, got " + JsonValues.describe(typeObj));
        }
        if (!TYPES.contains(type)) {
            throw new InvalidSearchSpaceException(path, "unknown type \"" + type + "\"; known types: "
                    + "choice, randint, uniform, quniform, loguniform, qloguniform, normal, qnormal, lognormal, qlognormal");
        }
        Object valueObj = m.get("_value");
        if (!(valueObj instanceof List<?> values)) {
            throw new InvalidSearchSpaceException(path, valueObj == null ? "missing \"_value\""
                    : "\"_value\" must be a list, got " + JsonValues.describe(valueObj));
        }
        return switch (type) {
            case "choice" -> parseChoice(name, path, values);
            case "randint" -> {
                double[] v = numbers(path, type, values, 2, "[low, high]");
                if (v[0] != Math.rint(v[0]) || v[1] != Math.rint(v[1])) {
                    throw new InvalidSearchSpaceException(path, "randint bounds must be integers, got " + values);
                }
                if (v[0] >= v[1]) {
                    throw new InvalidSearchSpaceException(path, "randint needs low < high (high is excluded), got " + values);
                }
                // integers a JSON number holds exactly; their range also fits in a long
                if (Math.abs(v[0]) > EXACT_INTEGER || Math.abs(v[1]) > EXACT_INTEGER) {
                    throw new InvalidSearchSpaceException(path, "randint bounds must lie within -2^53 and 2^53 (9007199254740992), got "
                            + values);
                }
                yield new RandInt(name, path, (long) v[0], (long) v[1]);
            }
            case "uniform", "quniform" -> {
                boolean quantised = type.startsWith("q");
                double[] v = numbers(path, type, values, quantised ? 3 : 2, quantised ? "[low, high, q]" : "[low, high]");
                if (v[0] >= v[1]) {
                    throw new InvalidSearchSpaceException(path, type + " needs low < high, got " + values);
                }
                yield new Uniform(name, path, v[0], v[1], quantum(path, type, v, quantised));
            }
            case "loguniform", "qloguniform" -> {
                boolean quantised = type.startsWith("q");
                double[] v = numbers(path, type, values, quantised ? 3 : 2, quantised ? "[low, high, q]" : "[low, high]");
                if (v[0] <= 0) {
                    throw new InvalidSearchSpaceException(path, type + " needs low > 0 (it is sampled on a log scale), got " + values);
                }
                if (v[0] >= v[1]) {
                    throw new InvalidSearchSpaceException(path, type + " needs low < high, got " + values);
                }
                yield new LogUniform(name, path, v[0], v[1], quantum(path, type, v, quantised));
            }
            default -> { // normal, qnormal, lognormal, qlognormal
                boolean quantised = type.startsWith("q");
                double[] v = numbers(path, type, values, quantised ? 3 : 2, quantised ? "[mu, sigma, q]" : "[mu, sigma]");
                if (v[1] <= 0) {
                    throw new InvalidSearchSpaceException(path, type + " needs sigma > 0, got " + values);
                }
                double q = quantum(path, type, v, quantised);
                yield type.endsWith("lognormal") ? new LogNormal(name, path, v[0], v[1], q) : new Normal(name, path, v[0], v[1], q);
            }
        };
    }

    private static double quantum(String path, String type, double[] v, boolean quantised) {
        if (!quantised) {
            return 0;
        }
        if (v[2] <= 0) {
            throw new InvalidSearchSpaceException(path, type + " needs q > 0, got " + v[2]);
        }
        return v[2];
    }

    private static double[] numbers(String path, String type, List<?> values, int arity, String shape) {
        if (values.size() != arity) {
            throw new InvalidSearchSpaceException(path, type + " takes " + arity + " values " + shape + ", got " + values.size() + ": " + values);
        }
        double[] out = new double[arity];
        for (int i = 0; i < arity; i++) {
            Object o = values.get(i);
            if (!(o instanceof Number n) || Double.isNaN(n.doubleValue()) || Double.isInfinite(n.doubleValue())) {
                throw new InvalidSearchSpaceException(path, type + " values must be finite numbers " + shape + ", got "
                        + JsonValues.describe(o) + " at position " + i);
            }
            out[i] = n.doubleValue();
        }
        return out;
    }

    private static Choice parseChoice(String name, String path, List<?> values) {
        if (values.isEmpty()) {
            throw new InvalidSearchSpaceException(path, "choice needs at least one option");
        }
        List<Choice.Option> options = new ArrayList<>(values.size());
        Set<Object> names = new java.util.HashSet<>();
        for (int i = 0; i < values.size(); i++) {
            Object o = values.get(i);
            if (o instanceof Map<?, ?> m && m.containsKey("_name")) {
                Object optionName = m.get("_name");
                if (!(optionName instanceof String || optionName instanceof Number || optionName instanceof Boolean)) {
                    throw new InvalidSearchSpaceException(path, "option " + i + ": \"_name\" must be a string, number or boolean, got "
                            + JsonValues.describe(optionName));
                }
                if (!names.add(optionName)) {
                    throw new InvalidSearchSpaceException(path, "option " + i + ": \"_name\" " + JsonValues.describe(optionName)
                            + " is used by two options");
                }
                Map<String, Object> sub = new LinkedHashMap<>();
                m.forEach((k, v) -> {
                    if (!"_name".equals(k)) {
                        sub.put((String) k, v);
                    }
                });
                options.add(new Choice.Option(optionName, parseObject(sub, path + "/" + optionName + "/")));
            } else {
                options.add(new Choice.Option(o, null));
            }
        }
        return new Choice(name, path, options);
    }

    /** The top-level parameters, in definition order. */
    public List<Parameter> parameters() {
        return parameters;
    }

    /** The top-level parameter with this name, or {@code null}. */
    public Parameter parameter(String name) {
        return byName.get(name);
    }

    /** Every parameter, nested ones included, depth first in definition order. */
    public List<Parameter> allParameters() {
        List<Parameter> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    private static void collect(SearchSpace space, List<Parameter> out) {
        for (Parameter p : space.parameters) {
            out.add(p);
            if (p instanceof Choice c) {
                for (Choice.Option o : c.options()) {
                    if (o.nested()) {
                        collect(o.subspace(), out);
                    }
                }
            }
        }
    }

    /** True when there are no parameters. */
    public boolean isEmpty() {
        return parameters.isEmpty();
    }

    /** The definition as parsed (NNI's JSON shape, as plain Java values). */
    public Map<String, Object> definition() {
        return definition;
    }

    /** Draws one parameter set from the prior: every parameter independently, nested options recursively. */
    public Parameters sample(RandomGenerator rng) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Parameter p : parameters) {
            values.put(p.name(), p.sample(rng));
        }
        return Parameters.of(values);
    }

    /**
     * What is wrong with {@code parameters} for this space (a missing, unknown or out-of-range value),
     * or empty when it fits. Inside a nested choice the message names the full path, such as
     * {@code model/tree/depth}.
     */
    public Optional<String> violation(Parameters parameters) {
        for (Parameter p : this.parameters) {
            if (!parameters.values().containsKey(p.name())) {
                return Optional.of("parameter '" + p.path() + "' is missing");
            }
            Object v = parameters.values().get(p.name());
            if (p instanceof Choice c && c.indexOf(v) >= 0 && c.options().get(c.indexOf(v)).nested()) {
                Choice.Option option = c.options().get(c.indexOf(v));
                Map<String, Object> sub = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, x) -> {
                    if (!"_name".equals(k)) {
                        sub.put((String) k, x);
                    }
                });
                Optional<String> inner = option.subspace().violation(Parameters.of(sub));
                if (inner.isPresent()) {
                    String m = inner.get();
                    return Optional.of(m.startsWith("parameter '") ? m : "parameter '" + p.path() + "' (choice), option "
                            + JsonValues.describe(option.value()) + ": " + m);
                }
                continue;
            }
            if (!p.accepts(v)) {
                return Optional.of("parameter '" + p.path() + "' (" + p.nniType() + "): " + JsonValues.describe(v)
                        + " is not a possible value (expected " + expected(p) + ")");
            }
        }
        for (String k : parameters.values().keySet()) {
            if (!byName.containsKey(k)) {
                return Optional.of("'" + k + "' is not a parameter of the space");
            }
        }
        return Optional.empty();
    }

    /** What values {@code p} takes, for messages: its options, or its range and quantum. */
    private static String expected(Parameter p) {
        if (p instanceof Choice c) {
            List<String> options = new ArrayList<>();
            for (Choice.Option o : c.options()) {
                if (options.size() == 10) {
                    options.add("... " + (c.options().size() - 10) + " more");
                    break;
                }
                options.add(JsonValues.describe(o.value()));
            }
            return "one of " + String.join(", ", options);
        }
        if (p instanceof RandInt r) {
            return "an integer in [" + r.low() + ", " + r.high() + ")";
        }
        Continuous c = (Continuous) p;
        String quantum = c.q() > 0 ? ", a multiple of " + c.q() : "";
        if (c.bounded()) {
            return "a number in [" + c.low() + ", " + c.high() + "]" + quantum;
        }
        return (c.logScale() ? "a positive number" : "a finite number") + quantum;
    }

    /**
     * How many distinct parameter sets the space holds when that number is finite (every parameter
     * a choice, a randint or a bounded quantised type), or empty when it is infinite or too large.
     */
    public OptionalLong size() {
        long total = 1;
        for (Parameter p : parameters) {
            long n;
            if (p instanceof Choice c) {
                n = 0;
                for (Choice.Option o : c.options()) {
                    if (o.nested()) {
                        OptionalLong sub = o.subspace().size();
                        if (sub.isEmpty()) {
                            return OptionalLong.empty();
                        }
                        n = Math.addExact(n, sub.getAsLong());
                    } else {
                        n++;
                    }
                }
            } else if (p instanceof RandInt r) {
                n = r.size();
            } else if (p instanceof Continuous c && c.q() > 0 && c.bounded()) {
                n = quantisedCount(c);
            } else {
                return OptionalLong.empty();
            }
            try {
                total = Math.multiplyExact(total, n);
            } catch (ArithmeticException overflow) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(total);
    }

    /**
     * The values {@code clip(round(x / q) * q)} takes for x in [low, high]: one per multiple k of q
     * from round(low / q) to round(high / q). A multiple outside the bounds is clipped onto the bound
     * and still counts once; a bound that no draw rounds onto is not a value of its own.
     */
    private static long quantisedCount(Continuous c) {
        double lo = Math.rint(c.low() / c.q());
        double hi = Math.rint(c.high() / c.q());
        return Math.max(1, (long) (hi - lo) + 1);
    }

    /** A builder, for spaces made in code (tests, examples). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SearchSpace s && s.definition.equals(definition);
    }

    @Override
    public int hashCode() {
        return definition.hashCode();
    }

    @Override
    public String toString() {
        return "SearchSpace" + definition;
    }

    /** Builds a search space in code; {@link #build()} validates it as {@link #parse} does. */
    public static final class Builder {
        private final Map<String, Object> def = new LinkedHashMap<>();

        private Builder() {}

        private Builder add(String name, String type, Object... values) {
            def.put(name, Map.of("_type", type, "_value", java.util.Arrays.asList(values)));
            return this;
        }

        /** {@code choice} over plain values. */
        public Builder choice(String name, Object... options) { return add(name, "choice", options); }
        /** {@code randint [low, high)}. */
        public Builder randint(String name, long low, long high) { return add(name, "randint", low, high); }
        /** {@code uniform [low, high]}. */
        public Builder uniform(String name, double low, double high) { return add(name, "uniform", low, high); }
        /** {@code quniform [low, high, q]}. */
        public Builder quniform(String name, double low, double high, double q) { return add(name, "quniform", low, high, q); }
        /** {@code loguniform [low, high]}. */
        public Builder loguniform(String name, double low, double high) { return add(name, "loguniform", low, high); }
        /** {@code qloguniform [low, high, q]}. */
        public Builder qloguniform(String name, double low, double high, double q) { return add(name, "qloguniform", low, high, q); }
        /** {@code normal [mu, sigma]}. */
        public Builder normal(String name, double mu, double sigma) { return add(name, "normal", mu, sigma); }
        /** {@code qnormal [mu, sigma, q]}. */
        public Builder qnormal(String name, double mu, double sigma, double q) { return add(name, "qnormal", mu, sigma, q); }
        /** {@code lognormal [mu, sigma]}. */
        public Builder lognormal(String name, double mu, double sigma) { return add(name, "lognormal", mu, sigma); }
        /** {@code qlognormal [mu, sigma, q]}. */
        public Builder qlognormal(String name, double mu, double sigma, double q) { return add(name, "qlognormal", mu, sigma, q); }

        /** A nested {@code choice}: each option name maps to the sub-space chosen with it. */
        public Builder nestedChoice(String name, Map<String, SearchSpace> options) {
            List<Object> opts = new ArrayList<>();
            options.forEach((optionName, sub) -> {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("_name", optionName);
                o.putAll(sub.definition());
                opts.add(o);
            });
            def.put(name, Map.of("_type", "choice", "_value", opts));
            return this;
        }

        /** Validates and returns the space. */
        public SearchSpace build() {
            return parse(def);
        }
    }
}
