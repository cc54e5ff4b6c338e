package org.tunekit.tuners.unitcube;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.RandInt;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A tuner that proposes points of the unit cube of {@link EncodedSpace} and lets this class do the
 * rest: decoding a point into a parameter set ({@code fromUnit}, then {@code decode}, which rounds
 * integers and option indices and quantises), keeping observations (results, imported data,
 * customized trials) and pending suggestions, suppressing duplicates, recognising an exhausted
 * finite space, and saving and restoring all of it as a checkpoint of plain text lines.
 *
 * <p>Every parameter set is kept with its <em>source</em>: the encoded vector it was decoded from,
 * so that a checkpoint restores the exact same sets. A set's <em>unit</em> vector is
 * {@code toUnit(encode(set))}: {@code NaN} where a nested parameter is inactive.
 *
 * <p>Randomness: suggestion number {@code k} gets its own generator seeded from {@code (seed, k)},
 * so the sequence is reproducible and a restored tuner continues it.
 *
 * <p>A subclass implements {@link #propose}; when a proposal decodes to a set already suggested or
 * observed it is asked again with the next attempt number, up to {@value #PROPOSAL_ATTEMPTS} times,
 * then uniform random points are tried, then (for a finite space) the remaining sets are
 * enumerated; only then is {@link NoMoreTrialsException} thrown.
 */
public abstract class UnitCubeTuner implements Tuner {
    private static final System.Logger LOG = System.getLogger(UnitCubeTuner.class.getName());
    /** How often {@link #propose} is asked for one suggestion before random points are tried. */
    protected static final int PROPOSAL_ATTEMPTS = 64;
    private static final int RANDOM_ATTEMPTS = 256;
    private static final long MAX_ENUMERATION = 1_000_000;
    private static final String FORMAT_VERSION = "1";

    /**
     * A suggestion waiting for its result.
     *
     * @param parameterId the id the dispatcher gave it
     * @param parameters  the parameter set
     * @param source      the encoded vector it was decoded from
     * @param unit        {@code toUnit(encode(parameters))}, {@code NaN} at inactive coordinates
     * @param raw         the unit-cube point the tuner proposed (before rounding)
     */
    public record Proposal(long parameterId, Parameters parameters, double[] source, double[] unit, double[] raw) {}

    /**
     * One result the tuner knows.
     *
     * @param parameterId the id of the suggestion, or -1 for imported and customized results
     * @param parameters  the parameter set
     * @param source      the encoded vector it was decoded from
     * @param unit        {@code toUnit(encode(parameters))}, {@code NaN} at inactive coordinates
     * @param raw         the proposed unit-cube point, or {@code null} when this tuner did not propose it
     * @param loss        the metric as a loss (smaller is better); may be infinite or {@code NaN}
     */
    public record Observation(long parameterId, Parameters parameters, double[] source, double[] unit, double[] raw, double loss) {}

    private final String checkpointName;
    /** Whether a larger or a smaller metric is better. */
    protected final OptimizeMode mode;
    private long seed;

    private SearchSpace space;
    private EncodedSpace encoded;
    private final List<Observation> observations = new ArrayList<>();
    private final Map<Long, Proposal> pending = new LinkedHashMap<>();
    /** Every set suggested, observed or imported, with its source vector. */
    private final Map<Parameters, double[]> seen = new LinkedHashMap<>();
    private final List<ImportedTrial> importsBeforeSpace = new ArrayList<>();
    private List<String> deferredCheckpoint;
    private long step;

    /**
     * Creates the tuner.
     *
     * @param checkpointName names the tuner in its checkpoint's first line
     * @param mode           whether a larger or a smaller metric is better
     * @param seed           the seed of every random choice
     */
    protected UnitCubeTuner(String checkpointName, OptimizeMode mode, long seed) {
        this.checkpointName = checkpointName;
        this.mode = mode;
        this.seed = seed;
    }

    /** The class argument {@code seed}, or a fresh random seed when it is absent. */
    public static long seedOf(ClassArguments arguments) {
        java.util.OptionalLong s = arguments.getOptionalLong("seed");
        return s.isPresent() ? s.getAsLong() : new SplittableRandom().nextLong();
    }

    // ----------------------------------------------------------------------------------- hooks

    /**
     * Proposes a point of the unit cube for suggestion {@code parameterId}. Called with attempt 0,
     * then again with 1, 2, ... while the proposals decode to sets that are already known.
     *
     * @param parameterId the id of the suggestion
     * @param attempt     0 for the first proposal of this suggestion
     * @param rng         this suggestion's generator (the same object for every attempt)
     * @return a vector of {@link #dimension()} values in [0, 1] (values outside are clamped), or
     *         {@code null} to let random points be tried
     */
    protected abstract double[] propose(long parameterId, int attempt, SplittableRandom rng);

    /** Told that the search space changed: every observation has been re-encoded and pending suggestions dropped. */
    protected void spaceChanged(EncodedSpace space) {}

    /** Told that a proposal became a suggestion. */
    protected void proposalAccepted(Proposal proposal) {}

    /**
     * Told of a new observation.
     *
     * @param observation the observation, already in {@link #observations()}
     * @param proposal    the pending suggestion it answers, or {@code null} (imported, customized)
     */
    protected void observed(Observation observation, Proposal proposal) {}

    /** Told that a suggestion ended without a result. */
    protected void abandoned(Proposal proposal) {}

    /** Appends the subclass's own checkpoint lines; each line's first word must not be one of this class's. */
    protected void writeState(List<String> lines) {}

    /**
     * Restores the subclass's own state from its checkpoint lines, grouped by their first word
     * (each entry is one line split at spaces, first word included). Called after the search
     * space is known and this class's state is restored.
     */
    protected void readState(Map<String, List<String[]>> lines) throws IOException {}

    // ----------------------------------------------------------------------------------- state for subclasses

    /** The encoded view of the current space, or {@code null} before the first space. */
    protected final EncodedSpace encoded() {
        return encoded;
    }

    /** The number of unit-cube coordinates. */
    protected final int dimension() {
        return encoded == null ? 0 : encoded.size();
    }

    /** Every observation, in order of arrival. */
    protected final List<Observation> observations() {
        return Collections.unmodifiableList(observations);
    }

    /** The suggestions waiting for results, in order of suggestion. */
    protected final Collection<Proposal> pending() {
        return Collections.unmodifiableCollection(pending.values());
    }

    /** The unit points of the suggestions waiting for results, in order of suggestion. */
    protected final List<double[]> pendingUnits() {
        List<double[]> units = new ArrayList<>(pending.size());
        for (Proposal p : pending.values()) {
            units.add(p.unit());
        }
        return units;
    }

    /** The seed of every random choice (restored from a checkpoint when one is loaded). */
    protected final long seed() {
        return seed;
    }

    /** How many suggestions have been made so far (the seed index of the next one). */
    protected final long step() {
        return step;
    }

    /** A generator seeded from the tuner's seed and the given keys, independent of all others. */
    protected final SplittableRandom rngFor(long... keys) {
        long h = seed ^ 0x6A09E667F3BCC909L;
        for (long k : keys) {
            h = mix(h + 0x9E3779B97F4A7C15L * (k + 1));
        }
        return new SplittableRandom(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * The unit vector a unit-cube point decodes to, without building the parameter set: integers and
     * option indices rounded, quantised values quantised, inactive nested coordinates {@code NaN}.
     * Equal, up to rounding of logarithms, to the {@code unit} of the set the point decodes to.
     */
    protected final double[] canonicalUnit(double[] point) {
        double[] x = encoded.fromUnit(clampUnit(point));
        for (EncodedSpace.Dimension d : encoded.dimensions()) {
            int i = d.index();
            if (!encoded.isActive(d, x)) {
                x[i] = Double.NaN;
            } else if (d.kind() == EncodedSpace.Kind.REAL) {
                Continuous c = (Continuous) d.parameter();
                if (c.q() > 0 || c.bounded()) {
                    double value = c.logScale() ? Math.exp(x[i]) : x[i];
                    value = c.quantize(c.bounded() ? Math.max(c.low(), Math.min(c.high(), value)) : value);
                    x[i] = c.logScale() ? Math.log(value) : value;
                }
            }
        }
        return encoded.toUnit(x);
    }

    private static double[] clampUnit(double[] point) {
        double[] u = new double[point.length];
        for (int i = 0; i < u.length; i++) {
            double v = point[i];
            u[i] = Double.isNaN(v) ? 0.5 : Math.max(0, Math.min(1, v));
        }
        return u;
    }

    // ----------------------------------------------------------------------------------- Tuner

    /**
     * Sets the space. The same space again (as a resumed experiment sends it) changes nothing; a
     * different one keeps the observations that fit it, drops pending suggestions and resets the
     * subclass through {@link #spaceChanged}.
     */
    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && fingerprint(newSpace).equals(fingerprint(space))) {
            return;
        }
        this.space = newSpace;
        this.encoded = EncodedSpace.of(newSpace);
        pending.clear();
        List<Observation> old = new ArrayList<>(observations);
        observations.clear();
        seen.clear();
        for (Observation o : old) {
            Known k = canonical(o.parameters());
            if (k != null) {
                observations.add(new Observation(-1, k.parameters, k.source, unitOf(k.parameters), null, o.loss()));
                seen.putIfAbsent(k.parameters, k.source);
            }
        }
        spaceChanged(encoded);
        if (deferredCheckpoint != null) {
            List<String> lines = deferredCheckpoint;
            deferredCheckpoint = null;
            try {
                restore(lines);
            } catch (IOException e) {
                throw new IllegalStateException("the checkpoint loaded earlier cannot be applied: " + e.getMessage(), e);
            }
        }
        if (!importsBeforeSpace.isEmpty()) {
            List<ImportedTrial> imports = new ArrayList<>(importsBeforeSpace);
            importsBeforeSpace.clear();
            importData(imports);
        }
    }

    @Override
    public final Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (encoded == null) {
            throw new IllegalStateException("generateParameters called before updateSearchSpace");
        }
        OptionalLong size = space.size();
        if (size.isPresent() && seen.size() >= size.getAsLong()) {
            throw new NoMoreTrialsException("all " + size.getAsLong() + " parameter sets of the search space have been suggested");
        }
        SplittableRandom rng = rngFor(step++);
        for (int attempt = 0; attempt < PROPOSAL_ATTEMPTS; attempt++) {
            double[] u = propose(parameterId, attempt, rng);
            if (u == null) {
                break;
            }
            Proposal p = tryAccept(parameterId, u);
            if (p != null) {
                return p.parameters();
            }
        }
        for (int attempt = 0; attempt < RANDOM_ATTEMPTS; attempt++) {
            double[] u = new double[dimension()];
            for (int i = 0; i < u.length; i++) {
                u[i] = rng.nextDouble();
            }
            Proposal p = tryAccept(parameterId, u);
            if (p != null) {
                return p.parameters();
            }
        }
        if (size.isPresent() && size.getAsLong() <= MAX_ENUMERATION) {
            for (Parameters candidate : enumerate(space)) {
                Known k = canonical(candidate);
                if (k != null && !seen.containsKey(k.parameters)) {
                    double[] raw = encoded.toUnit(k.source);
                    for (int i = 0; i < raw.length; i++) {
                        if (Double.isNaN(raw[i])) {
                            raw[i] = 0.5;
                        }
                    }
                    return accept(parameterId, k, raw).parameters();
                }
            }
            throw new NoMoreTrialsException("all parameter sets of the search space have been suggested");
        }
        throw new NoMoreTrialsException("no new parameter set found after " + (PROPOSAL_ATTEMPTS + RANDOM_ATTEMPTS) + " attempts");
    }

    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        List<Parameters> out = new ArrayList<>(parameterIds.size());
        for (long id : parameterIds) {
            try {
                out.add(generateParameters(id));
            } catch (NoMoreTrialsException e) {
                break;
            }
        }
        return out;
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        double loss = mode.toLoss(result.metric().value());
        Proposal p = pending.remove(result.parameterId());
        if (p != null && !result.customized()) {
            Observation o = new Observation(p.parameterId(), p.parameters(), p.source(), p.unit(), p.raw(), loss);
            observations.add(o);
            observed(o, p);
            return;
        }
        if (p != null) {
            abandoned(p);
        }
        addExternal(result.parameters(), loss, "trial " + result.parameterId());
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        Proposal p = pending.remove(parameterId);
        if (p != null) {
            abandoned(p);
        }
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        if (encoded == null) {
            importsBeforeSpace.addAll(trials);
            return;
        }
        Set<Result> results = null;
        for (ImportedTrial t : trials) {
            double loss = mode.toLoss(t.metric().value());
            Known k = canonical(t.parameters());
            if (k == null) {
                LOG.log(System.Logger.Level.WARNING, "imported trial skipped, it does not fit the search space: "
                        + space.violation(t.parameters()).orElse(t.parameters().toString()));
                continue;
            }
            Proposal answered = null;
            for (Proposal p : pending.values()) {
                if (p.parameters().equals(k.parameters)) {
                    answered = p;
                    break;
                }
            }
            if (answered != null) {
                pending.remove(answered.parameterId());
                Observation o = new Observation(answered.parameterId(), answered.parameters(), answered.source(),
                        answered.unit(), answered.raw(), loss);
                observations.add(o);
                observed(o, answered);
                continue;
            }
            if (results == null) {
                // built once per call: a large import stays linear instead of scanning every observation per trial
                results = new HashSet<>();
                for (Observation o : observations) {
                    results.add(new Result(o.parameters(), o.loss()));
                }
            }
            if (results.add(new Result(k.parameters, loss))) {
                addExternal(k, loss);
            }
        }
    }

    /** An observation's identity for finding repeated imports; {@code Double.equals} matches {@code Double.compare}. */
    private record Result(Parameters parameters, double loss) {}

    private void addExternal(Parameters parameters, double loss, String what) {
        if (encoded == null || parameters == null) {
            return;
        }
        Known k = canonical(parameters);
        if (k == null) {
            LOG.log(System.Logger.Level.WARNING, what + " ignored, it does not fit the search space: "
                    + space.violation(parameters).orElse(parameters.toString()));
            return;
        }
        addExternal(k, loss);
    }

    private void addExternal(Known k, double loss) {
        Observation o = new Observation(-1, k.parameters, k.source, unitOf(k.parameters), null, loss);
        observations.add(o);
        seen.putIfAbsent(k.parameters, k.source);
        observed(o, null);
    }

    // ----------------------------------------------------------------------------------- sets

    /** A parameter set in canonical form, with the encoded vector it decodes from. */
    private record Known(Parameters parameters, double[] source) {}

    private Known canonical(Parameters p) {
        if (space.violation(p).isPresent()) {
            return null;
        }
        double[] source;
        try {
            source = encoded.encode(p);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return new Known(decode(source), source);
    }

    private Parameters decode(double[] source) {
        return Parameters.of(withoutNegativeZero(encoded.decode(source).values()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutNegativeZero(Map<String, Object> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v instanceof Double d && d == 0.0) {
                out.put(k, 0.0);
            } else if (v instanceof Map<?, ?> m) {
                out.put(k, withoutNegativeZero((Map<String, Object>) m));
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    private double[] unitOf(Parameters p) {
        return encoded.toUnit(encoded.encode(p));
    }

    private Proposal tryAccept(long parameterId, double[] point) {
        double[] raw = clampUnit(point);
        if (raw.length != dimension()) {
            throw new IllegalStateException("proposal has " + raw.length + " coordinates, the space has " + dimension());
        }
        double[] source = encoded.fromUnit(raw);
        Parameters p = decode(source);
        if (seen.containsKey(p)) {
            return null;
        }
        return accept(parameterId, new Known(p, source), raw);
    }

    private Proposal accept(long parameterId, Known k, double[] raw) {
        Proposal proposal = new Proposal(parameterId, k.parameters, k.source, unitOf(k.parameters), raw);
        seen.put(k.parameters, k.source);
        Proposal replaced = pending.put(parameterId, proposal);
        if (replaced != null) {
            abandoned(replaced);
        }
        proposalAccepted(proposal);
        return proposal;
    }

    /** Every parameter set of a finite space, in definition order. */
    private static List<Parameters> enumerate(SearchSpace s) {
        List<Map<String, Object>> sets = new ArrayList<>();
        sets.add(new LinkedHashMap<>());
        for (Parameter p : s.parameters()) {
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

    // ----------------------------------------------------------------------------------- checkpoint

    /**
     * Writes {@code state.txt}: a header line, then one line per item, words separated by single
     * spaces, numbers as Java hexadecimal floating-point literals so that they read back exactly.
     */
    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("tunekit-checkpoint " + checkpointName + " " + FORMAT_VERSION);
        if (encoded == null) {
            if (deferredCheckpoint != null) {
                lines = deferredCheckpoint;
            }
        } else {
            lines.add("space " + fingerprint(space) + " " + encoded.size());
            lines.add("seed " + seed);
            lines.add("step " + step);
            for (Observation o : observations) {
                lines.add("obs " + o.parameterId() + " " + hex(o.loss()) + " " + vector(o.source()) + " | " + vector(o.raw()));
            }
            for (Proposal p : pending.values()) {
                lines.add("pending " + p.parameterId() + " " + vector(p.source()) + " | " + vector(p.raw()));
            }
            for (double[] source : seen.values()) {
                lines.add("seen " + vector(source));
            }
            writeState(lines);
        }
        try (BufferedWriter w = Files.newBufferedWriter(directory.resolve("state.txt"), StandardCharsets.UTF_8)) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
    }

    /**
     * Reads {@code state.txt}. When the search space is not known yet the state is applied at the
     * next {@link #updateSearchSpace}; a checkpoint of a different search space is ignored (logged).
     */
    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path file = directory.resolve("state.txt");
        if (!Files.exists(file)) {
            return;
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        }
        String expected = "tunekit-checkpoint " + checkpointName + " " + FORMAT_VERSION;
        if (lines.isEmpty() || !lines.get(0).equals(expected)) {
            throw new IOException(file + ": line 1 must be \"" + expected + "\", got \""
                    + (lines.isEmpty() ? "" : lines.get(0)) + "\"");
        }
        if (encoded == null) {
            deferredCheckpoint = lines;
        } else {
            restore(lines);
        }
    }

    private void restore(List<String> lines) throws IOException {
        Map<String, List<String[]>> byKey = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] words = line.split(" ");
            byKey.computeIfAbsent(words[0], k -> new ArrayList<>()).add(words);
        }
        List<String[]> spaceLine = byKey.get("space");
        if (spaceLine == null) {
            return;
        }
        String[] sl = spaceLine.get(0);
        if (!sl[1].equals(fingerprint(space)) || Integer.parseInt(sl[2]) != encoded.size()) {
            LOG.log(System.Logger.Level.WARNING, "checkpoint ignored: it was saved for a different search space");
            return;
        }
        observations.clear();
        pending.clear();
        seen.clear();
        seed = Long.parseLong(byKey.get("seed").get(0)[1]);
        step = Long.parseLong(byKey.get("step").get(0)[1]);
        for (String[] w : byKey.getOrDefault("obs", List.of())) {
            long id = Long.parseLong(w[1]);
            double loss = Double.parseDouble(w[2]);
            double[][] parts = vectors(w, 3);
            Parameters p = decode(parts[0]);
            observations.add(new Observation(id, p, parts[0], unitOf(p), parts[1], loss));
        }
        for (String[] w : byKey.getOrDefault("pending", List.of())) {
            long id = Long.parseLong(w[1]);
            double[][] parts = vectors(w, 2);
            Parameters p = decode(parts[0]);
            pending.put(id, new Proposal(id, p, parts[0], unitOf(p), parts[1]));
        }
        for (String[] w : byKey.getOrDefault("seen", List.of())) {
            double[] source = vectors(w, 1)[0];
            seen.put(decode(source), source);
        }
        readState(byKey);
    }

    /**
     * A fingerprint of a search space that is the same in every process: built from the parsed
     * parameters (paths, types, numbers, option values), not from map iteration orders.
     */
    private static String fingerprint(SearchSpace s) {
        StringBuilder sb = new StringBuilder();
        for (Parameter p : s.allParameters()) {
            sb.append(p.path()).append('\u0000').append(p.nniType()).append('\u0000');
            if (p instanceof Choice c) {
                for (Choice.Option o : c.options()) {
                    sb.append(o.nested() ? "nested:" : "").append(o.value()).append('\u0001');
                }
            } else {
                sb.append(p);
            }
            sb.append('\n');
        }
        long h = 1125899906842597L;
        for (int i = 0; i < sb.length(); i++) {
            h = 31 * h + sb.charAt(i);
        }
        return Long.toHexString(mix(h));
    }

    /** A double as an exact hexadecimal literal ({@code NaN} and infinities by name). */
    public static String hex(double v) {
        return Double.toHexString(v);
    }

    /** A vector as space-separated exact literals, or {@code -} for {@code null}. */
    public static String vector(double[] v) {
        if (v == null) {
            return "-";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(Double.toHexString(v[i]));
        }
        return v.length == 0 ? "()" : sb.toString();
    }

    /** Reads the words from {@code from} on as a vector ({@code null} for {@code -}). */
    public static double[] parseVector(String[] words, int from, int to) {
        if (to - from == 1 && words[from].equals("-")) {
            return null;
        }
        if (to - from == 1 && words[from].equals("()")) {
            return new double[0];
        }
        double[] v = new double[to - from];
        for (int i = from; i < to; i++) {
            v[i - from] = Double.parseDouble(words[i]);
        }
        return v;
    }

    /** Splits words from {@code from} on at {@code |} into vectors. */
    private static double[][] vectors(String[] words, int from) {
        List<double[]> parts = new ArrayList<>();
        int start = from;
        for (int i = from; i <= words.length; i++) {
            if (i == words.length || words[i].equals("|")) {
                parts.add(parseVector(words, start, i));
                start = i + 1;
            }
        }
        if (parts.size() == 1) {
            parts.add(null);
        }
        return parts.toArray(new double[0][]);
    }
}
