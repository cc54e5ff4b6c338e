package org.tunekit.tuners.tpe;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The tree-structured Parzen estimator of Bergstra et al. (2011), "Algorithms for Hyper-Parameter
 * Optimization", under NNI's {@code TPE} name and class arguments.
 *
 * <p>Until {@code n_startup_jobs} results have arrived, parameter sets are drawn from the prior. After
 * that the observations are split by loss: the best {@code ceil(gamma * n^0.8)} are "good", the rest
 * "bad". (The linear rule {@code ceil(gamma * n)} keeps too many good observations for a focused
 * search on a 100-trial budget, the square-root rule of later TPE implementations too few; the
 * power 0.8 lies between them and measured best on the benchmark suite: at the default gamma 0.25 it
 * keeps 4, 6 and 10 good observations out of 25, 50 and 100.) For every parameter, nested ones included, two Parzen estimators are built from the
 * observations where that parameter was active: l from the good ones, g from the bad ones. Each
 * mixes one component per observation with the prior (weight {@code prior_weight}); the weights of
 * all but the {@code linear_forgetting} most recent observations ramp down linearly with age; every
 * numeric component's bandwidth is multiplied by {@code bandwidth_factor} (a Tunekit extension of
 * NNI's arguments, in (0, 1], default 1: NNI's estimator; Katib's {@code tpe} uses 0.4 for its short
 * budgets).
 * {@code n_ei_candidates} values are drawn from l and the one with the largest l / g (which maximises
 * expected improvement) is suggested. Parameters are chosen one at a time in search-space order, so a
 * nested option's parameters are chosen only when the option is; in {@code multivariate} mode whole
 * parameter sets are drawn from the l estimators and the set with the largest joint ratio wins.
 *
 * <p>Encoding: continuous kinds are modelled in their own (log-)space, truncated to the bounds of
 * the uniform kinds; quantised kinds and {@code randint} (an ordered integer, modelled on
 * [low - 0.5, high - 0.5]) are rounded after drawing and scored at the rounded value; {@code choice}
 * estimators are weighted option counts plus {@code prior_weight} spread evenly over the options.
 *
 * <p>Batches: a trial that has been suggested but has no result yet is modelled with the constant
 * liar's loss (the best, worst or mean loss so far, {@code constant_liar_type}), which decides whether
 * it counts as good or bad; its component weighs a quarter of a real observation's, so that a batch
 * spreads out instead of piling onto its own guesses (with the default liar {@code best} this halved
 * the batch-mode regret on hartmann6). No parameter set is suggested twice; a finite space that is used up ends with {@link NoMoreTrialsException}.
 *
 * <p>With several objectives (MOTPE, see {@link MotpeTunerProvider}) everything above holds but the
 * split: each observation keeps its vector of losses, and the good ones are chosen by Pareto rank and
 * hypervolume contribution ({@link GoodBadSplit#byPareto}); a pending trial is good under the liar
 * {@code best} and bad under the others.
 */
public final class TpeTuner implements Tuner {
    private static final String CHECKPOINT_FILE = "tpe-state.txt";
    private static final String CHECKPOINT_MAGIC = "tunekit-tpe 1";
    private static final int MODEL_ATTEMPTS = 8;
    private static final int RANDOM_ATTEMPTS = 2000;

    private final TpeSettings settings;
    private final SplitMix64 rng;
    /** The objectives of MOTPE; none for TPE. */
    private final Objectives objectives;
    /** The tuner's name in messages and checkpoints. */
    private final String name;
    /** MOTPE: every slot's loss vector (null for pending and dead slots); unused by TPE. */
    private double[][] lossVectors = new double[16][];

    private SearchSpace space;
    private EncodedSpace encoded;
    private OptionalLong spaceSize = OptionalLong.empty();
    private History history = new History(0);
    /** Trials this tuner knows by id (pending, or with a result and not yet ended), to their slot. */
    private final Map<Long, Integer> slotOfTrial = new LinkedHashMap<>();
    /** Every parameter set suggested or observed, so that none is suggested twice. */
    private final Set<VectorKey> seen = new HashSet<>();
    private Restored restored;

    private ParzenModel model;
    private final GoodBadSplit split = new GoodBadSplit();

    /** Creates the tuner with the given settings. */
    TpeTuner(TpeSettings settings) {
        this(settings, Objectives.none());
    }

    /**
     * Creates the tuner with the given settings; with several objectives it is MOTPE (see
     * {@link MotpeTunerProvider}): the settings' mode is then unused and observations are split by
     * Pareto rank and hypervolume contribution instead of by loss.
     */
    TpeTuner(TpeSettings settings, Objectives objectives) {
        this.settings = settings;
        this.objectives = objectives;
        this.name = objectives.isEmpty() ? "TPE" : "MOTPE";
        long seed = settings.seed().isPresent() ? settings.seed().getAsLong() : new SplittableRandom().nextLong();
        this.rng = new SplitMix64(seed);
    }

    /** The settings this tuner runs with. */
    TpeSettings settings() {
        return settings;
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (newSpace.equals(space)) {
            return;
        }
        EncodedSpace oldEncoded = encoded;
        History oldHistory = history;
        double[][] oldVectors = lossVectors;
        lossVectors = new double[16][];
        space = newSpace;
        encoded = EncodedSpace.of(newSpace);
        spaceSize = newSpace.size();
        model = new ParzenModel(encoded, settings);
        history = new History(encoded.size());
        slotOfTrial.clear();
        seen.clear();
        if (restored != null && restored.fingerprint == fingerprint(newSpace) && restored.dims == encoded.size()) {
            apply(restored);
            restored = null;
            return;
        }
        restored = null;
        if (oldEncoded != null) {
            // keep the completed observations that still fit the new space
            for (int s = 0; s < oldHistory.slots; s++) {
                if (oldHistory.state[s] == History.DONE) {
                    Parameters p = oldEncoded.decode(oldHistory.vector(s));
                    if (newSpace.violation(p).isEmpty()) {
                        double[] x = encode(p);
                        setVector(history.add(x, History.DONE, oldHistory.loss[s]), s < oldVectors.length ? oldVectors[s] : null);
                        seen.add(new VectorKey(x));
                    }
                }
            }
        }
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (space == null) {
            throw new IllegalStateException(name + ": generateParameters before the search space was set");
        }
        if (spaceSize.isPresent() && seen.size() >= spaceSize.getAsLong()) {
            throw new NoMoreTrialsException(name + ": all " + spaceSize.getAsLong() + " parameter sets of the search space have been suggested");
        }
        double[] x = null;
        if (history.doneCount >= settings.startupJobs() && history.doneCount > 0) {
            buildModels();
            for (int attempt = 0; attempt < MODEL_ATTEMPTS && x == null; attempt++) {
                double[] candidate = normalise(settings.multivariate() ? model.proposeJointly(rng) : model.proposeOneAtATime(rng));
                if (!seen.contains(new VectorKey(candidate))) {
                    x = candidate;
                }
            }
        }
        for (int attempt = 0; attempt < RANDOM_ATTEMPTS && x == null; attempt++) {
            double[] candidate = encode(space.sample(rng));
            if (!seen.contains(new VectorKey(candidate))) {
                x = candidate;
            }
        }
        if (x == null) {
            throw new NoMoreTrialsException(name + ": found no parameter set that has not been suggested already");
        }
        seen.add(new VectorKey(x));
        int slot = history.add(x, History.PENDING, Double.NaN);
        Integer previous = slotOfTrial.put(parameterId, slot);
        if (previous != null) {
            history.remove(previous);
        }
        return encoded.decode(x);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        if (space == null) {
            return;
        }
        double[] vector = objectives.isEmpty() ? null : objectives.losses(result);
        double loss = vector == null ? settings.mode().toLoss(result.metric().value()) : scalarLoss(vector);
        Integer slot = slotOfTrial.get(result.parameterId());
        if (slot != null && history.state[slot] == History.PENDING) {
            if (Double.isFinite(loss)) {
                history.complete(slot, loss);
                setVector(slot, vector);
            } else {
                history.remove(slot);
                slotOfTrial.remove(result.parameterId());
            }
            return;
        }
        if (slot != null) {
            history.remove(slot); // a second final result replaces the first
        }
        if (!Double.isFinite(loss) || result.parameters() == null || space.violation(result.parameters()).isPresent()) {
            slotOfTrial.remove(result.parameterId());
            return;
        }
        double[] x = encode(result.parameters());
        seen.add(new VectorKey(x));
        int added = history.add(x, History.DONE, loss);
        setVector(added, vector);
        slotOfTrial.put(result.parameterId(), added);
    }

    /**
     * MOTPE's stand-in for the scalar loss History keeps (its order by loss is not used for the
     * split): the sum of the losses, or NaN when one is not finite, which drops the observation.
     */
    private static double scalarLoss(double[] vector) {
        double sum = 0;
        for (double v : vector) {
            if (!Double.isFinite(v)) {
                return Double.NaN;
            }
            sum += v;
        }
        return sum;
    }

    private void setVector(int slot, double[] vector) {
        if (objectives.isEmpty()) {
            return;
        }
        if (slot >= lossVectors.length) {
            lossVectors = Arrays.copyOf(lossVectors, Math.max(slot + 1, lossVectors.length * 2));
        }
        lossVectors[slot] = vector;
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        Integer slot = slotOfTrial.remove(parameterId);
        if (slot == null) {
            return;
        }
        if (history.state[slot] == History.PENDING) {
            // a trial that ended without a result lies no more; one that sent a result before an
            // unsuccessful end (a stopped trial's last intermediate value, with
            // NNI_INCLUDE_INTERMEDIATE_RESULTS) is learnt from, as the manager meant it to be
            history.remove(slot);
        }
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        if (space == null) {
            return;
        }
        for (int i = 0; i < trials.size(); i++) {
            ImportedTrial t = trials.get(i);
            double[] vector = objectives.isEmpty() ? null : objectives.losses(t.metric(), "imported trial " + (i + 1) + " of " + trials.size());
            double loss = vector == null ? settings.mode().toLoss(t.metric().value()) : scalarLoss(vector);
            if (!Double.isFinite(loss) || space.violation(t.parameters()).isPresent()) {
                continue;
            }
            double[] x = encode(t.parameters());
            seen.add(new VectorKey(x));
            setVector(history.add(x, History.DONE, loss), vector);
        }
    }

    /** How many completed observations the model learns from. */
    int observationCount() {
        return history.doneCount;
    }

    /** How many suggested trials are waiting for their result. */
    int pendingCount() {
        return history.pendingCount;
    }

    // ---------------------------------------------------------------- the model

    /** Compacts the observations when many are dead, splits them into good and bad, and builds the model. */
    private void buildModels() {
        History h = history;
        if (h.deadCount() > 64 && h.deadCount() > h.slots / 4) {
            int[] newSlot = h.compact();
            if (!objectives.isEmpty()) {
                double[][] moved = new double[lossVectors.length][];
                for (int s = 0; s < newSlot.length && s < lossVectors.length; s++) {
                    if (newSlot[s] >= 0) {
                        moved[newSlot[s]] = lossVectors[s];
                    }
                }
                lossVectors = moved;
            }
            slotOfTrial.replaceAll((id, slot) -> newSlot[slot]);
            slotOfTrial.values().removeIf(slot -> slot < 0);
        }
        boolean[] good = objectives.isEmpty()
                ? split.byLoss(h, settings.liar(), settings.gamma())
                : split.byPareto(h, lossVectors, settings.liar(), settings.gamma());
        model.build(h, good, settings.liar() != TpeSettings.ConstantLiar.NONE);
    }

    // ---------------------------------------------------------------- encoding

    /** Encodes a parameter set as the model sees it (a quantised log value of 0 becomes log(q / 2)). */
    private double[] encode(Parameters p) {
        double[] x = encoded.encode(p);
        for (ParzenCoordinate c : model.coordinates()) {
            double v = x[c.index];
            if (v == Double.NEGATIVE_INFINITY && c.continuous != null && c.continuous.logScale()) {
                x[c.index] = Math.log(c.continuous.q() * 0.5);
            }
            x[c.index] += 0.0; // no negative zero
        }
        return x;
    }

    /** The vector exactly as its decoded parameter set encodes, so that keys and results agree. */
    private double[] normalise(double[] x) {
        return encode(encoded.decode(x));
    }

    // ---------------------------------------------------------------- checkpoints

    private static int fingerprint(SearchSpace s) {
        return s.definition().toString().hashCode();
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(directory.resolve(CHECKPOINT_FILE), StandardCharsets.UTF_8)) {
            w.write(magic() + "\n");
            w.write("rng " + rng.state() + "\n");
            if (space == null) {
                w.write("space none\n");
                return;
            }
            w.write("space " + fingerprint(space) + " " + history.dims() + "\n");
            Map<Integer, Long> trialOfSlot = new LinkedHashMap<>();
            slotOfTrial.forEach((id, slot) -> trialOfSlot.put(slot, id));
            for (int s = 0; s < history.slots; s++) {
                byte st = history.state[s];
                if (st == History.DEAD) {
                    continue;
                }
                Long id = trialOfSlot.get(s);
                StringBuilder line = new StringBuilder("obs ").append(st == History.DONE ? 'D' : 'P')
                        .append(' ').append(id == null ? "-" : id.toString())
                        .append(' ').append(history.loss[s]);
                for (int d = 0; d < history.dims(); d++) {
                    line.append(' ').append(history.values[d][s]);
                }
                w.write(line.append('\n').toString());
                if (!objectives.isEmpty() && st == History.DONE) {
                    StringBuilder vec = new StringBuilder("vec");
                    for (double v : lossVectors[s]) {
                        vec.append(' ').append(v);
                    }
                    w.write(vec.append('\n').toString());
                }
            }
            for (VectorKey k : seen) {
                StringBuilder line = new StringBuilder("seen");
                for (double v : k.x()) {
                    line.append(' ').append(v);
                }
                w.write(line.append('\n').toString());
            }
        }
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path file = directory.resolve(CHECKPOINT_FILE);
        if (!Files.exists(file)) {
            return;
        }
        Restored r = new Restored();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String magic = in.readLine();
            if (!magic().equals(magic)) {
                throw new IOException(file + ": not a " + name + " checkpoint (first line " + magic + ")");
            }
            String line;
            int lineNo = 1;
            while ((line = in.readLine()) != null) {
                lineNo++;
                String[] f = line.split(" ");
                try {
                    switch (f[0]) {
                        case "rng" -> rng.setState(Long.parseLong(f[1]));
                        case "space" -> {
                            if (f[1].equals("none")) {
                                return;
                            }
                            r.fingerprint = Integer.parseInt(f[1]);
                            r.dims = Integer.parseInt(f[2]);
                        }
                        case "obs" -> {
                            double[] x = new double[r.dims];
                            for (int d = 0; d < r.dims; d++) {
                                x[d] = Double.parseDouble(f[4 + d]);
                            }
                            r.observations.add(new RestoredObservation(f[1].equals("D"),
                                    f[2].equals("-") ? null : Long.valueOf(f[2]), Double.parseDouble(f[3]), x));
                        }
                        case "vec" -> {
                            double[] v = new double[f.length - 1];
                            for (int d = 0; d < v.length; d++) {
                                v[d] = Double.parseDouble(f[1 + d]);
                            }
                            r.vectors.put(r.observations.size() - 1, v);
                        }
                        case "seen" -> {
                            double[] x = new double[f.length - 1];
                            for (int d = 0; d < x.length; d++) {
                                x[d] = Double.parseDouble(f[1 + d]);
                            }
                            r.seen.add(x);
                        }
                        default -> throw new IOException("unknown record '" + f[0] + "'");
                    }
                } catch (RuntimeException e) {
                    throw new IOException(file + " line " + lineNo + ": malformed: " + line, e);
                }
            }
        }
        if (!objectives.isEmpty()) {
            for (int i = 0; i < r.observations.size(); i++) {
                double[] v = r.vectors.get(i);
                if (r.observations.get(i).done() && (v == null || v.length != objectives.size())) {
                    throw new IOException(file + ": completed observation " + (i + 1) + " has no vector of " + objectives.size() + " losses");
                }
            }
        }
        if (space != null && r.fingerprint == fingerprint(space) && r.dims == encoded.size()) {
            history = new History(encoded.size());
            lossVectors = new double[16][];
            slotOfTrial.clear();
            seen.clear();
            apply(r);
        } else {
            restored = r;
        }
    }

    private String magic() {
        return objectives.isEmpty() ? CHECKPOINT_MAGIC : "tunekit-motpe 1 " + objectives.size();
    }

    private void apply(Restored r) {
        for (int i = 0; i < r.observations.size(); i++) {
            RestoredObservation o = r.observations.get(i);
            int slot = history.add(o.x(), o.done() ? History.DONE : History.PENDING, o.loss());
            setVector(slot, r.vectors.get(i));
            if (o.trial() != null) {
                slotOfTrial.put(o.trial(), slot);
            }
        }
        for (double[] x : r.seen) {
            seen.add(new VectorKey(x));
        }
    }

    private static final class Restored {
        int fingerprint;
        int dims;
        final List<RestoredObservation> observations = new ArrayList<>();
        final List<double[]> seen = new ArrayList<>();
        final Map<Integer, double[]> vectors = new java.util.HashMap<>();
    }

    private record RestoredObservation(boolean done, Long trial, double loss, double[] x) {}

    // ---------------------------------------------------------------- per-coordinate state

    /** An encoded parameter set as a hash key. */
    private record VectorKey(double[] x) {
        @Override
        public boolean equals(Object o) {
            return o instanceof VectorKey k && Arrays.equals(x, k.x);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(x);
        }
    }
}
