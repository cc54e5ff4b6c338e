package org.tunekit.tuners.pbt;

import org.tunekit.tuners.common.ValueText;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Population-based training in synchronous rounds; the package description states the contract
 * with trials. One instance holds the current round: each member's hyper-parameters, the directory
 * it loads from, and whether it is waiting to be handed out, running, done (with its metric) or
 * failed. The next round is formed in one step when the last member of the round settles, with a
 * generator that depends only on the seed and the round number, so the order in which results
 * arrive does not change it.
 *
 * <p>It counts the requested ids it could not fill; when a round is formed, it sends that many of
 * the new round's members through its {@link TunerContext}, so that a manager that asks only when
 * trials end keeps every round parallel.
 */
final class PbtTuner implements Tuner {
    /** The key holding the directory a trial loads its model from. */
    static final String LOAD_KEY = "load_checkpoint_dir";
    /** The key holding the directory a trial saves its model into. */
    static final String SAVE_KEY = "save_checkpoint_dir";

    static final String CHECKPOINT_FILE = "pbt-tuner.state";
    private static final String CHECKPOINT_HEADER = "tunekit-pbt-state 1";
    private static final System.Logger LOG = System.getLogger(PbtTuner.class.getName());

    /** Where a member is in its round. */
    enum State {
        /** Not yet handed out in this round. */
        WAITING,
        /** Handed out; its trial has not reported. */
        RUNNING,
        /** Its trial reported a final metric. */
        DONE,
        /** Its trial ended without a usable final metric. */
        FAILED
    }

    /** One member of the current round. */
    static final class Member {
        final int index;
        Parameters hyper;
        Path loadDir;
        State state = State.WAITING;
        long parameterId = -1;
        double metric = Double.NaN;

        Member(int index, Parameters hyper, Path loadDir) {
            this.index = index;
            this.hyper = hyper;
            this.loadDir = loadDir;
        }
    }

    /** A result imported before the first round was formed: a candidate for the first population. */
    record Hint(Parameters hyper, double metric) {}

    private final PbtSettings settings;
    private final Explorer explorer;
    private long seed;
    private Path root;
    private SearchSpace space;
    /** The current round, or -1 before the first round is formed. */
    private int round = -1;
    private List<Member> members = List.of();
    private final Map<Long, Member> byParameterId = new HashMap<>();
    private final List<Hint> hints = new ArrayList<>();
    /** Where members are sent on the tuner's own initiative; {@code null} until opened. */
    private TunerContext context;
    /** Requested ids answered with "no more trials" whose slots no member has filled since. */
    private int unfilled;

    PbtTuner(ClassArguments arguments) {
        this(arguments, System.getenv());
    }

    PbtTuner(ClassArguments arguments, Map<String, String> env) {
        settings = PbtSettings.from(arguments, env);
        explorer = new Explorer(settings.factor(), settings.resampleProbability());
        seed = settings.seed();
        root = settings.checkpointRoot();
    }

    PbtSettings settings() {
        return settings;
    }

    /** The current round (its "epoch" in the directory names), or -1 before the first one. */
    int round() {
        return round;
    }

    /** The directory member {@code index} of round {@code round} saves into: {@code <root>/<round>/<index>}. */
    Path saveDir(int round, int index) {
        return root().resolve(Integer.toString(round)).resolve(Integer.toString(index));
    }

    private Path root() {
        if (root == null) {
            try {
                root = Files.createTempDirectory("tunekit-pbt-").toAbsolutePath();
            } catch (IOException e) {
                throw new UncheckedIOException("PBTTuner: cannot create a temporary directory for the checkpoints"
                        + " (set the class argument 'all_checkpoint_dir')", e);
            }
            LOG.log(System.Logger.Level.INFO, "PBTTuner: neither 'all_checkpoint_dir' nor " + PbtSettings.ENV_CHECKPOINT_DIRECTORY
                    + " is set; the members' checkpoints go under " + root);
        }
        return root;
    }

    @Override
    public void open(TunerContext tunerContext) {
        context = tunerContext;
    }

    /** Requested ids refused so far whose slots no member has filled since (for tests). */
    int unfilled() {
        return unfilled;
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        for (String reserved : List.of(LOAD_KEY, SAVE_KEY)) {
            if (newSpace.parameter(reserved) != null) {
                throw new IllegalArgumentException("PBTTuner: the search space must not have a parameter named '" + reserved
                        + "': PBT adds that key to every parameter set itself");
            }
        }
        space = newSpace;
        // members not yet handed out whose values the new space cannot take start afresh from its prior
        SplittableRandom rng = null;
        for (Member m : members) {
            if (m.state == State.WAITING && space.violation(m.hyper).isPresent()) {
                if (rng == null) {
                    rng = roundGenerator(round).split();
                }
                LOG.log(System.Logger.Level.INFO, "PBTTuner: member " + m.index + " of round " + round + " does not fit the new search space ("
                        + space.violation(m.hyper).get() + "); drawn afresh, starting from an empty checkpoint");
                m.hyper = space.sample(rng);
                m.loadDir = saveDir(round, m.index);
            }
        }
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        Parameters p = nextWaiting(parameterId);
        if (p == null) {
            unfilled++;
            throw noneWaiting();
        }
        return p;
    }

    /** A multi-phase trial's request is not a trial slot: a refusal is not counted as unfilled. */
    @Override
    public Parameters generateParameters(long parameterId, String trialJobId) throws NoMoreTrialsException {
        Parameters p = nextWaiting(parameterId);
        if (p == null) {
            throw noneWaiting();
        }
        return p;
    }

    /** The waiting members in member order, one per id; the ids left over are counted as unfilled. */
    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        List<Parameters> out = new ArrayList<>(parameterIds.size());
        for (long id : parameterIds) {
            Parameters p = nextWaiting(id);
            if (p == null) {
                unfilled += parameterIds.size() - out.size();
                break;
            }
            out.add(p);
        }
        return out;
    }

    /** Hands out the first waiting member under {@code parameterId}, or returns {@code null} when none waits. */
    private Parameters nextWaiting(long parameterId) {
        if (space == null) {
            throw new IllegalStateException("PBTTuner: asked for parameters before any search space was set");
        }
        if (round < 0) {
            formFirstRound();
        }
        for (Member m : members) {
            if (m.state == State.WAITING) {
                Parameters p = handOut(m);
                running(m, parameterId);
                return p;
            }
        }
        return null;
    }

    /** Creates the member's directories and marks it running; returns its parameter set. */
    private Parameters handOut(Member m) {
        Path save = saveDir(round, m.index);
        try {
            Files.createDirectories(save);
            Files.createDirectories(m.loadDir);
        } catch (IOException e) {
            throw new UncheckedIOException("PBTTuner: cannot create the checkpoint directory " + save
                    + " of member " + m.index + " in round " + round, e);
        }
        m.state = State.RUNNING;
        return withDirectories(m, save);
    }

    private void running(Member m, long parameterId) {
        m.parameterId = parameterId;
        byParameterId.put(parameterId, m);
    }

    private NoMoreTrialsException noneWaiting() {
        long settled = members.stream().filter(m -> m.state == State.DONE || m.state == State.FAILED).count();
        return new NoMoreTrialsException("every member of PBT round " + round + " is out (" + settled + " of "
                + members.size() + " have reported); the next round starts when all have");
    }

    /** Sends waiting members of the current round through the context, one per unfilled slot. */
    private void sendForUnfilledSlots() {
        if (context == null || unfilled == 0) {
            return;
        }
        int sent = 0;
        for (Member m : members) {
            if (unfilled == 0) {
                break;
            }
            if (m.state == State.WAITING) {
                Parameters p = handOut(m);
                running(m, context.sendTrial(p));
                unfilled--;
                sent++;
            }
        }
        LOG.log(System.Logger.Level.INFO, "PBTTuner: " + sent + " members of round " + round
                + " sent for slots refused earlier" + (unfilled > 0 ? "; " + unfilled + " slots are still unfilled" : ""));
    }

    private static Parameters withDirectories(Member m, Path save) {
        Map<String, Object> values = new LinkedHashMap<>(m.hyper.values());
        values.put(LOAD_KEY, m.loadDir.toString());
        values.put(SAVE_KEY, save.toString());
        return Parameters.of(values);
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        Member m = byParameterId.get(result.parameterId());
        if (m == null) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: result of parameter id " + result.parameterId()
                    + " is not from a member of round " + round + "; ignored");
            return;
        }
        if (m.state != State.RUNNING) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: member " + m.index + " of round " + round
                    + " has already settled; result of parameter id " + result.parameterId() + " ignored");
            return;
        }
        double value = result.metric().value();
        if (Double.isNaN(value)) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: member " + m.index + " of round " + round + " reported NaN; it counts as failed");
            m.state = State.FAILED;
        } else {
            m.state = State.DONE;
            m.metric = value;
        }
        formNextRoundWhenSettled();
    }

    /** A member whose trial ends without a final result has failed; it is drawn afresh for the next round. */
    @Override
    public void trialEnd(long parameterId, boolean success) {
        Member m = byParameterId.get(parameterId);
        if (m == null) {
            return;
        }
        if (m.state == State.RUNNING) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: member " + m.index + " of round " + round + " ended ("
                    + (success ? "succeeded" : "did not succeed") + ") without a final result; it counts as failed");
            m.state = State.FAILED;
            formNextRoundWhenSettled();
        } else if (!success) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: member " + m.index + " of round " + round
                    + " did not succeed after reporting its final result; the result stands");
        }
    }

    private void formNextRoundWhenSettled() {
        for (Member m : members) {
            if (m.state != State.DONE && m.state != State.FAILED) {
                return;
            }
        }
        formNextRound();
    }

    /**
     * The generator of round {@code r}: the {@code (r + 1)}-th generator split from one seeded with
     * {@code seed}. It depends on nothing but the seed and the round.
     */
    private SplittableRandom roundGenerator(int r) {
        SplittableRandom master = new SplittableRandom(seed);
        SplittableRandom g = master.split();
        for (int i = 0; i < r; i++) {
            g = master.split();
        }
        return g;
    }

    private void formFirstRound() {
        SplittableRandom rng = roundGenerator(0);
        List<Hint> usable = new ArrayList<>();
        for (Hint h : hints) {
            if (space.violation(h.hyper()).isEmpty()) {
                usable.add(h);
            }
        }
        usable.sort(Comparator.comparingDouble(h -> settings.mode().toLoss(h.metric())));
        int fromHints = Math.min(usable.size(), settings.populationSize() / 2);
        List<Member> first = new ArrayList<>(settings.populationSize());
        for (int i = 0; i < settings.populationSize(); i++) {
            Parameters hyper = i < fromHints ? usable.get(i).hyper() : space.sample(rng);
            first.add(new Member(i, hyper, saveDir(0, i)));
        }
        if (fromHints > 0) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: " + fromHints + " of the " + settings.populationSize()
                    + " first members take the best imported parameter sets");
        }
        hints.clear();
        round = 0;
        members = first;
        byParameterId.clear();
    }

    /**
     * Forms round {@code round + 1}: failed members are drawn afresh from the prior and start from
     * an empty checkpoint; the worst {@link PbtSettings#exploitCount(int)} members (no more than half
     * of those with a metric) each copy the hyper-parameters and the checkpoint of a random member
     * of the best as many, then explore; the others continue from their own checkpoint.
     */
    private void formNextRound() {
        int next = round + 1;
        SplittableRandom rng = roundGenerator(next);
        List<Member> ranked = new ArrayList<>();
        for (Member m : members) {
            if (m.state == State.DONE) {
                ranked.add(m);
            }
        }
        ranked.sort(Comparator.comparingDouble((Member m) -> settings.mode().toLoss(m.metric)).thenComparingInt(m -> m.index));
        int k = Math.min(settings.exploitCount(members.size()), ranked.size() / 2);
        List<Member> top = ranked.subList(0, k);
        List<Member> bottom = ranked.subList(ranked.size() - k, ranked.size());
        List<Member> formed = new ArrayList<>(members.size());
        StringBuilder summary = new StringBuilder();
        for (Member m : members) {
            Parameters hyper;
            Path load;
            if (m.state == State.FAILED) {
                hyper = space.sample(rng);
                load = saveDir(next, m.index);
                summary.append(" ").append(m.index).append(":resampled");
            } else if (bottom.contains(m)) {
                Member source = top.get(rng.nextInt(k));
                hyper = explorer.explore(space, source.hyper, rng);
                load = saveDir(round, source.index);
                summary.append(" ").append(m.index).append("<-").append(source.index);
            } else {
                hyper = m.hyper;
                load = saveDir(round, m.index);
            }
            if (space.violation(hyper).isPresent()) {
                hyper = space.sample(rng);
                load = saveDir(next, m.index);
                summary.append(" ").append(m.index).append(":redrawn-for-new-space");
            }
            formed.add(new Member(m.index, hyper, load));
        }
        LOG.log(System.Logger.Level.INFO, "PBTTuner: round " + next + " formed" + (summary.length() == 0 ? "; every member continues" : ":" + summary));
        round = next;
        members = formed;
        byParameterId.clear();
        sendForUnfilledSlots();
    }

    /**
     * Results imported before the first round is formed are hints: the best of those that fit the
     * space (up to half the population) become members of the first round, which start from empty
     * checkpoints. Later, an imported result whose {@code save_checkpoint_dir} is that of a member of
     * the current round that has not settled (a trial of this experiment from before a restart)
     * settles that member. Everything else is ignored, with a log line.
     */
    @Override
    public void importData(List<ImportedTrial> trials) {
        int used = 0;
        for (ImportedTrial t : trials) {
            if (round < 0) {
                hints.add(new Hint(withoutDirectories(t.parameters()), t.metric().value()));
                used++;
                continue;
            }
            Object save = t.parameters().get(SAVE_KEY);
            for (Member m : members) {
                if ((m.state == State.WAITING || m.state == State.RUNNING) && save instanceof String s
                        && saveDir(round, m.index).toString().equals(s) && !Double.isNaN(t.metric().value())) {
                    if (m.state == State.RUNNING) {
                        byParameterId.remove(m.parameterId);
                    }
                    m.state = State.DONE;
                    m.metric = t.metric().value();
                    used++;
                    break;
                }
            }
        }
        LOG.log(System.Logger.Level.INFO, "PBTTuner: " + used + " of " + trials.size() + " imported results "
                + (round < 0 ? "kept as hints for the first population" : "settled members of round " + round)
                + (used < trials.size() ? "; the others are ignored" : ""));
        if (round >= 0 && used > 0) {
            formNextRoundWhenSettled();
        }
    }

    private static Parameters withoutDirectories(Parameters p) {
        Map<String, Object> values = new LinkedHashMap<>(p.values());
        values.remove(LOAD_KEY);
        values.remove(SAVE_KEY);
        return Parameters.of(values);
    }

    /** The members of the current round, for tests. */
    List<Member> members() {
        return members;
    }

    // ---- checkpoint: one record per line, tokens URL-encoded and separated by single spaces ----

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(directory.resolve(CHECKPOINT_FILE), StandardCharsets.UTF_8)) {
            out.write(CHECKPOINT_HEADER);
            out.newLine();
            line(out, "seed", Long.toString(seed));
            if (root != null) {
                line(out, "root", root.toString());
            }
            line(out, "round", Integer.toString(round));
            for (Hint h : hints) {
                line(out, "hint", Double.toString(h.metric()), ValueText.write(h.hyper().values()));
            }
            for (Member m : members) {
                line(out, "member", Integer.toString(m.index), m.state.name(), Long.toString(m.parameterId),
                        Double.toString(m.metric), m.loadDir.toString(), ValueText.write(m.hyper.values()));
            }
        }
    }

    private static void line(BufferedWriter out, String... tokens) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String t : tokens) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(URLEncoder.encode(t, StandardCharsets.UTF_8));
        }
        out.write(sb.toString());
        out.newLine();
    }

    /**
     * Restores the seed, the checkpoint root, the round and its members. A member that was running
     * when the checkpoint was saved is waiting again: the trials of a stopped experiment do not
     * report, so the member is handed out anew (unless an imported result settles it first).
     */
    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path file = directory.resolve(CHECKPOINT_FILE);
        if (!Files.exists(file)) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: no checkpoint file " + file + "; starting afresh");
            return;
        }
        long savedSeed = seed;
        Path savedRoot = null;
        int savedRound = -2;
        List<Hint> savedHints = new ArrayList<>();
        List<Member> savedMembers = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (!CHECKPOINT_HEADER.equals(header)) {
                throw new IOException(file + " is not a PBTTuner checkpoint: its first line is " + header + ", expected " + CHECKPOINT_HEADER);
            }
            String text;
            int lineNumber = 1;
            while ((text = in.readLine()) != null) {
                lineNumber++;
                if (text.isEmpty()) {
                    continue;
                }
                String[] raw = text.split(" ", -1);
                String[] t = new String[raw.length];
                for (int i = 0; i < raw.length; i++) {
                    t[i] = URLDecoder.decode(raw[i], StandardCharsets.UTF_8);
                }
                try {
                    switch (t[0]) {
                        case "seed" -> savedSeed = Long.parseLong(tokens(t, 2)[1]);
                        case "root" -> savedRoot = Path.of(tokens(t, 2)[1]);
                        case "round" -> savedRound = Integer.parseInt(tokens(t, 2)[1]);
                        case "hint" -> savedHints.add(new Hint(parameters(tokens(t, 3)[2]), Double.parseDouble(t[1])));
                        case "member" -> {
                            tokens(t, 7);
                            Member m = new Member(Integer.parseInt(t[1]), parameters(t[6]), Path.of(t[5]));
                            m.state = State.valueOf(t[2]);
                            m.parameterId = Long.parseLong(t[3]);
                            m.metric = Double.parseDouble(t[4]);
                            if (m.index != savedMembers.size()) {
                                throw new IllegalArgumentException("member " + m.index + " where member " + savedMembers.size() + " was expected");
                            }
                            savedMembers.add(m);
                        }
                        default -> throw new IllegalArgumentException("unknown record '" + t[0] + "'");
                    }
                } catch (IllegalArgumentException e) {
                    throw new IOException(file + " line " + lineNumber + ": " + e.getMessage(), e);
                }
            }
        }
        if (savedRound < -1 || (savedRound >= 0 && (savedRoot == null || savedMembers.isEmpty()))) {
            throw new IOException(file + " is incomplete: it needs its root, round and (from round 0 on) member records");
        }
        if (savedRoot != null && settings.checkpointRoot() != null && !settings.checkpointRoot().equals(savedRoot)) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: continuing under the checkpoint's directory " + savedRoot
                    + " (not " + settings.checkpointRoot() + "), where the members' checkpoints are");
        }
        byParameterId.clear();
        // a resumed experiment's manager asks for its slots afresh
        unfilled = 0;
        int requeued = 0;
        for (Member m : savedMembers) {
            if (m.state == State.RUNNING) {
                m.state = State.WAITING;
                m.parameterId = -1;
                requeued++;
            }
        }
        if (requeued > 0) {
            LOG.log(System.Logger.Level.INFO, "PBTTuner: " + requeued + " members of round " + savedRound
                    + " were running when the experiment stopped; they are handed out again");
        }
        seed = savedSeed;
        if (savedRoot != null) {
            root = savedRoot;
        }
        round = savedRound;
        members = savedMembers;
        hints.clear();
        hints.addAll(savedHints);
    }

    private static String[] tokens(String[] t, int count) {
        if (t.length != count) {
            throw new IllegalArgumentException("'" + t[0] + "' needs " + (count - 1) + " fields, got " + (t.length - 1));
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private static Parameters parameters(String text) {
        Object v = ValueText.read(text);
        if (!(v instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("a parameter set must be an object, got " + text);
        }
        return Parameters.of((Map<String, Object>) m);
    }
}
