package org.tunekit.study;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.objectives.Objective;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Defines a study and opens it ({@link #open()}): its search space, its tuner and assessor by the names and class
 * arguments of an NNI experiment config, what it optimises, and where it keeps its trials. Everything is checked,
 * and the tuner and assessor created, before anything is stored.
 *
 * <p>Defaults: tuner {@code TPE}, no assessor, one objective minimised, trials in memory.
 */
public final class StudyBuilder {
    private final String name;
    private SearchSpace space;
    private String tuner = "TPE";
    private Map<String, Object> tunerArguments = Map.of();
    private String assessor;
    private Map<String, Object> assessorArguments = Map.of();
    private final List<Objective> objectives = new ArrayList<>();
    private OptimizeMode direction;
    private Long seed;
    private Storage storage = Storage.inMemory();
    private boolean loadIfExists;
    private Duration heartbeat = Duration.ofSeconds(5);
    private Duration grace = Duration.ofSeconds(30);
    private boolean retryFailed;
    private Clock clock = Clock.systemUTC();

    StudyBuilder(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a study needs a name, got " + (name == null ? "null" : "'" + name + "'"));
        }
        this.name = name;
    }

    /** The search space. */
    public StudyBuilder space(SearchSpace s) {
        this.space = Objects.requireNonNull(s, "space");
        return this;
    }

    /** The search space in NNI's JSON form, as a map ({@code {"lr": {"_type": "loguniform", "_value": [1e-5, 0.1]}}}). */
    public StudyBuilder space(Map<String, ?> definition) {
        try {
            return space(SearchSpace.parse(definition));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid search space: " + e.getMessage(), e);
        }
    }

    /** The search space as NNI's JSON text (the content of a {@code search_space.json}). */
    @SuppressWarnings("unchecked")
    public StudyBuilder spaceJson(String json) {
        Object tree;
        try {
            tree = org.tunekit.sdk.internal.Json.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the search space is not JSON: " + e.getMessage(), e);
        }
        if (!(tree instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the search space must be a JSON object, got " + org.tunekit.sdk.JsonValues.describe(tree));
        }
        return space((Map<String, ?>) m);
    }

    /** The tuner, by the name an experiment config gives it ({@code TPE}, {@code GPTuner}, {@code Random}, ...). */
    public StudyBuilder tuner(String tunerName) {
        return tuner(tunerName, Map.of());
    }

    /** The tuner with class arguments ({@code optimize_mode} and {@code objectives} come from the study's objectives). */
    public StudyBuilder tuner(String tunerName, Map<String, ?> classArguments) {
        this.tuner = Objects.requireNonNull(tunerName, "tunerName");
        this.tunerArguments = new LinkedHashMap<>(classArguments);
        return this;
    }

    /** The assessor that prunes trials, by name ({@code Medianstop}, {@code Curvefitting}, ...). */
    public StudyBuilder assessor(String assessorName) {
        return assessor(assessorName, Map.of());
    }

    /** The assessor with class arguments ({@code optimize_mode} comes from the study's first objective). */
    public StudyBuilder assessor(String assessorName, Map<String, ?> classArguments) {
        this.assessor = Objects.requireNonNull(assessorName, "assessorName");
        this.assessorArguments = new LinkedHashMap<>(classArguments);
        return this;
    }

    /** One objective, smaller is better (the default). */
    public StudyBuilder minimize() {
        direction = OptimizeMode.MINIMIZE;
        return this;
    }

    /** One objective, larger is better. */
    public StudyBuilder maximize() {
        direction = OptimizeMode.MAXIMIZE;
        return this;
    }

    /** Adds an objective of a study of several: its metric's name and its direction, in the order of the values told. */
    public StudyBuilder objective(String metric, OptimizeMode mode) {
        objectives.add(Objective.of(metric, mode));
        return this;
    }

    /** The tuner's seed (its {@code seed} class argument): the same seed and results give the same suggestions. */
    public StudyBuilder seed(long s) {
        this.seed = s;
        return this;
    }

    /** Where the trials are kept (in memory by default). */
    public StudyBuilder storage(Storage s) {
        this.storage = Objects.requireNonNull(s, "storage");
        return this;
    }

    /** Loads the study when the storage has it (with the same definition), instead of failing. */
    public StudyBuilder loadIfExists() {
        this.loadIfExists = true;
        return this;
    }

    /**
     * How often this worker tells a shared storage that it is alive, and after how long without word the others fail
     * its running trials (5 and 30 seconds by default).
     */
    public StudyBuilder heartbeat(Duration interval, Duration silence) {
        if (interval.isNegative() || interval.isZero() || silence.compareTo(interval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("heartbeat: the interval must be positive and the silence at least twice as long, got "
                    + interval + " and " + silence);
        }
        this.heartbeat = interval;
        this.grace = silence;
        return this;
    }

    /** Runs again the parameters of trials failed because their worker went silent. */
    public StudyBuilder retryFailedTrials() {
        this.retryFailed = true;
        return this;
    }

    StudyBuilder clock(Clock c) {
        this.clock = c;
        return this;
    }

    /**
     * Creates the study (or loads it, with {@link #loadIfExists()}).
     *
     * @throws IllegalArgumentException when the definition is incomplete or contradicts itself
     * @throws StudyException           when a tuner or assessor is unknown or refuses its arguments, the storage already
     *                                  has a study of that name (or one with another definition), or cannot be used
     */
    public Study open() {
        StudyDefinition d = definition();
        // created before anything is stored: an unknown name or a bad argument leaves the storage untouched
        Tuner t = Algorithms.tuner(d.tuner(), d.tunerArguments());
        Assessor a = d.assessor() == null ? null : Algorithms.assessor(d.assessor(), d.assessorArguments());
        StudyStore store = storage.open(name, d, loadIfExists ? Storage.Mode.CREATE_OR_LOAD : Storage.Mode.CREATE);
        return start(store, t, a);
    }

    /** Loads the stored study of this name, with its stored definition. */
    Study load() {
        StudyStore store = storage.open(name, null, Storage.Mode.LOAD);
        StudyDefinition d = store.definition();
        try {
            Tuner t = Algorithms.tuner(d.tuner(), d.tunerArguments());
            Assessor a = d.assessor() == null ? null : Algorithms.assessor(d.assessor(), d.assessorArguments());
            return start(store, t, a);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private Study start(StudyStore store, Tuner t, Assessor a) {
        try {
            return new Study(store, t, a, clock, heartbeat, grace, retryFailed);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    StudyDefinition definition() {
        if (space == null) {
            throw new IllegalArgumentException("study '" + name + "': no search space (call space(...))");
        }
        if (space.isEmpty()) {
            throw new IllegalArgumentException("study '" + name + "': the search space has no parameters");
        }
        if (!objectives.isEmpty() && direction != null) {
            throw new IllegalArgumentException("study '" + name + "': give either one direction (minimize/maximize) or objectives, not both");
        }
        List<Objective> goals = new ArrayList<>(objectives);
        if (goals.isEmpty()) {
            goals.add(Objective.of("default", direction == null ? OptimizeMode.MINIMIZE : direction));
        }
        Map<String, Object> targs = new LinkedHashMap<>(tunerArguments);
        if (goals.size() == 1) {
            String mode = modeName(goals.get(0).mode());
            Object given = targs.putIfAbsent("optimize_mode", mode);
            if (given != null && !given.equals(mode)) {
                throw new IllegalArgumentException("study '" + name + "': the tuner's optimize_mode is " + given + " but the study's direction is " + mode);
            }
        } else {
            if (targs.containsKey("objectives")) {
                throw new IllegalArgumentException("study '" + name + "': give the objectives with objective(...), not as the tuner's class argument");
            }
            List<Object> list = new ArrayList<>();
            for (Objective o : goals) {
                list.add(Map.of("metric", o.metric(), "mode", modeName(o.mode())));
            }
            targs.put("objectives", list);
        }
        if (seed != null) {
            Object given = targs.putIfAbsent("seed", seed);
            if (given != null && !(given instanceof Number n && n.longValue() == seed)) {
                throw new IllegalArgumentException("study '" + name + "': the tuner's seed is " + given + " but the study's is " + seed);
            }
        }
        Map<String, Object> aargs = new LinkedHashMap<>(assessorArguments);
        if (assessor != null) {
            aargs.putIfAbsent("optimize_mode", modeName(goals.get(0).mode()));
        }
        return new StudyDefinition(name, space, tuner, targs, assessor, aargs, goals);
    }

    private static String modeName(OptimizeMode m) {
        return m == OptimizeMode.MAXIMIZE ? "maximize" : "minimize";
    }
}
