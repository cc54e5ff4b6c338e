package org.tunekit.sdk.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Tests a tuner in a few lines, under any test framework: it checks the contract the dispatcher
 * relies on, and drives the tuner through a run exactly as the dispatcher does
 * ({@code updateSearchSpace} once, parameter ids from 0, {@code generateParameters} or
 * {@code generateMultipleParameters}, then each trial's {@code receiveTrialResult} before its
 * {@code trialEnd}, all on one thread). A failed check throws an {@link AssertionError} naming the
 * check, the tuner, the search space and what went wrong.
 *
 * <p>Each tuner is first {@linkplain Tuner#open opened} with a {@link org.tunekit.sdk.TunerContext},
 * as the dispatcher does. Trials it sends through the context take the next parameter id, are
 * checked against the space like any suggestion, and fill the next free trial slots before the
 * tuner is asked again: in {@link #run}, a batch of {@link #withBatchSize n} is made of the waiting
 * sent trials and a request for the rest. A sent trial also ends an exhaustion, so a tuner that
 * refused a request and sends the trials later keeps the run going. The context throws
 * {@link IllegalStateException} outside the kit's calls into the tuner.
 *
 * <pre>{@code
 * // every shared check (see Check), each on fresh instances made from the arguments
 * TunerTestKit.forProvider(new MyTunerProvider())
 *     .withArguments(Map.of("seed", 7))
 *     .skip(Check.EXHAUSTION, "samples with replacement by design")
 *     .checkContract();
 *
 * // one check on its own
 * TunerTestKit.forTuner(args -> new MyTuner(args)).withArguments(Map.of("seed", 7)).check(Check.RESUME);
 *
 * // a run on an objective
 * TunerRun run = TunerTestKit.forProvider(new MyTunerProvider())
 *     .withSpace(space)
 *     .withArguments(Map.of("seed", 7, "optimize_mode", "minimize"))
 *     .run(Objective.minimize(p -> Math.pow(p.getDouble("x") - 1, 2)), 50);
 * assertTrue(run.best().value() < 0.1);
 * }</pre>
 *
 * <p>Instances are immutable: each {@code with...} and {@code skip} returns a new kit. The checks
 * that run on "the space" use the one given by {@link #withSpace} or, without one, the
 * {@link ContractSpaces#allTypes() all-types} and {@link ContractSpaces#nested() nested} spaces;
 * {@link Check#IN_SPACE} runs on every {@link ContractSpaces contract space} and on the given one.
 * A tuner that refuses some parameter types leaves a contract space out with {@link #skipSpace}.
 * {@link Check#RESUME} resumes a fresh instance as the dispatcher does: a tuner that implements
 * {@code loadCheckpoint} gets it first and then {@code updateSearchSpace}; any other gets
 * {@code updateSearchSpace} and then every earlier result through {@code importData}.
 */
public final class TunerTestKit {
    private static final int BATCH = 8;
    private static final int SEQUENCE = 10;

    private final Function<ClassArguments, Tuner> factory;
    private final String name;
    private final Map<String, Object> arguments;
    private final SearchSpace space;
    private final int batchSize;
    private final Map<Check, String> skipped;
    private final Map<String, String> skippedSpaces;

    private TunerTestKit(Function<ClassArguments, Tuner> factory, String name, Map<String, Object> arguments,
                         SearchSpace space, int batchSize, Map<Check, String> skipped, Map<String, String> skippedSpaces) {
        this.factory = factory;
        this.name = name;
        this.arguments = arguments;
        this.space = space;
        this.batchSize = batchSize;
        this.skipped = skipped;
        this.skippedSpaces = skippedSpaces;
    }

    /** A kit for the tuners a provider creates; the provider's name appears in failure messages. */
    public static TunerTestKit forProvider(TunerProvider provider) {
        Objects.requireNonNull(provider, "provider");
        return new TunerTestKit(provider::create, provider.name(), Map.of(), null, 1, Map.of(), Map.of());
    }

    /** A kit for the tuners a function creates from class arguments; failure messages name the tuner's class. */
    public static TunerTestKit forTuner(Function<ClassArguments, ? extends Tuner> factory) {
        Objects.requireNonNull(factory, "factory");
        return new TunerTestKit(factory::apply, null, Map.of(), null, 1, Map.of(), Map.of());
    }

    /** The class arguments every instance is created with (NNI's keys, such as {@code seed}). */
    public TunerTestKit withArguments(Map<String, ?> arguments) {
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = (Map<String, Object>) ClassArguments.of(arguments).asMap();
        return new TunerTestKit(factory, name, copy, space, batchSize, skipped, skippedSpaces);
    }

    /** The search space for {@link #run} and for the checks that use one space. */
    public TunerTestKit withSpace(SearchSpace space) {
        return new TunerTestKit(factory, name, arguments, Objects.requireNonNull(space, "space"), batchSize, skipped, skippedSpaces);
    }

    /**
     * How many suggestions {@link #run} asks for at once: 1 (the default) calls
     * {@code generateParameters}, more call {@code generateMultipleParameters} and report the whole
     * batch before asking again, as with that many concurrent trials.
     */
    public TunerTestKit withBatchSize(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1, got " + batchSize);
        }
        return new TunerTestKit(factory, name, arguments, space, batchSize, skipped, skippedSpaces);
    }

    /** Leaves a check out of {@link #checkContract()}, for a reason that a reader of the test should see. */
    public TunerTestKit skip(Check check, String reason) {
        Objects.requireNonNull(check, "check");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("skipping " + check + " needs a reason");
        }
        Map<Check, String> s = new EnumMap<>(Check.class);
        s.putAll(skipped);
        s.put(check, reason);
        return new TunerTestKit(factory, name, arguments, space, batchSize, Map.copyOf(s), skippedSpaces);
    }

    /**
     * Leaves one of the {@link ContractSpaces#all() contract spaces} (by its name there, such as
     * {@code "all-types"}) out of the checks, for a tuner that refuses some parameter types. The
     * duplicate and exhaustion checks keep their finite spaces; skip those checks instead.
     */
    public TunerTestKit skipSpace(String spaceName, String reason) {
        if (!ContractSpaces.all().containsKey(spaceName)) {
            throw new IllegalArgumentException("no contract space '" + spaceName + "'; the spaces are " + ContractSpaces.all().keySet());
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("skipping space '" + spaceName + "' needs a reason");
        }
        Map<String, String> s = new LinkedHashMap<>(skippedSpaces);
        s.put(spaceName, reason);
        return new TunerTestKit(factory, name, arguments, space, batchSize, skipped, Map.copyOf(s));
    }

    /**
     * Runs every check not skipped, each on fresh tuner instances.
     *
     * @throws AssertionError listing every check that failed
     */
    public void checkContract() {
        List<AssertionError> failures = new ArrayList<>();
        int ran = 0;
        for (Check c : Check.values()) {
            if (skipped.containsKey(c)) {
                continue;
            }
            ran++;
            try {
                check(c);
            } catch (AssertionError e) {
                failures.add(e);
            }
        }
        if (failures.size() == 1) {
            throw failures.get(0);
        }
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder(failures.size() + " of " + ran + " contract checks failed:");
            for (AssertionError e : failures) {
                sb.append("\n - ").append(e.getMessage());
            }
            skipped.forEach((c, why) -> sb.append("\n(skipped ").append(c).append(": ").append(why).append(')'));
            AssertionError all = new AssertionError(sb.toString());
            failures.forEach(all::addSuppressed);
            throw all;
        }
    }

    /**
     * Runs the given checks (whether or not they are skipped).
     *
     * @throws AssertionError for the first check that fails
     */
    public void check(Check first, Check... more) {
        List<Check> checks = new ArrayList<>();
        checks.add(first);
        checks.addAll(Arrays.asList(more));
        for (Check c : checks) {
            switch (Objects.requireNonNull(c, "check")) {
                case IN_SPACE -> checkInSpace();
                case SEED -> checkSeed();
                case BATCH -> checkBatch();
                case IMPORT_DATA -> checkImportData();
                case RESUME -> checkResume();
                case NO_DUPLICATES -> checkNoDuplicates();
                case EXHAUSTION -> checkExhaustion();
            }
        }
    }

    /**
     * Drives a fresh tuner through up to {@code trials} trials on the space given by
     * {@link #withSpace}, reporting the objective's value as each trial's final metric. Stops early
     * when the tuner has no more trials.
     *
     * @throws AssertionError when the tuner throws, or suggests something outside the space
     */
    public TunerRun run(Objective objective, int trials) {
        Objects.requireNonNull(objective, "objective");
        if (space == null) {
            throw new IllegalStateException("run needs a search space: call withSpace first");
        }
        if (trials < 1) {
            throw new IllegalArgumentException("trials must be at least 1, got " + trials);
        }
        String context = "TunerTestKit run of tuner '" + label() + "'";
        TunerDriver driver = new TunerDriver(create(context), space, context).start();
        List<TunerRun.Trial> history = new ArrayList<>();
        while (history.size() < trials && !driver.exhausted()) {
            List<TunerDriver.Suggestion> got = driver.suggest(Math.min(batchSize, trials - history.size()));
            for (TunerDriver.Suggestion s : got) {
                double v = driver.evaluate(objective.function(), s.parameters());
                driver.report(s, v);
                history.add(new TunerRun.Trial(s.parameterId(), s.parameters(), v));
            }
        }
        return new TunerRun(history, objective.mode(), driver.exhausted());
    }

    // ---- the checks ----

    private void checkInSpace() {
        Map<String, SearchSpace> spaces = new LinkedHashMap<>(ContractSpaces.all());
        spaces.keySet().removeAll(skippedSpaces.keySet());
        if (space != null) {
            spaces.put("given", space);
        }
        spaces.forEach((spaceName, s) -> {
            String context = context(Check.IN_SPACE, spaceName);
            TunerDriver d = new TunerDriver(create(context), s, context).start();
            ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(s);
            d.run(12, 1, metric);
            d.run(16, 4, metric);
        });
    }

    private void checkSeed() {
        for (Map.Entry<String, SearchSpace> e : oneSpaceChecks().entrySet()) {
            String context = context(Check.SEED, e.getKey());
            List<Parameters> a = sequence(arguments, e.getValue(), context);
            List<Parameters> b = sequence(arguments, e.getValue(), context);
            for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                if (!a.get(i).equals(b.get(i))) {
                    throw new AssertionError(context + ": two instances created with the same arguments " + arguments
                            + " suggested different parameters for parameter id " + i + ": " + a.get(i).values()
                            + " and " + b.get(i).values() + " (is all randomness seeded from the 'seed' argument?)");
                }
            }
            if (a.size() != b.size()) {
                throw new AssertionError(context + ": two instances created with the same arguments made "
                        + a.size() + " and " + b.size() + " suggestions before running out");
            }
            Object seed = arguments.get("seed");
            if (seed instanceof Number n && e.getValue().size().isEmpty() && a.size() == SEQUENCE) {
                Map<String, Object> other = new LinkedHashMap<>(arguments);
                other.put("seed", n.longValue() + 1);
                List<Parameters> c = sequence(other, e.getValue(), context);
                if (a.equals(c)) {
                    throw new AssertionError(context + ": seeds " + n.longValue() + " and " + (n.longValue() + 1)
                            + " gave the same " + SEQUENCE + " suggestions: the tuner ignores its 'seed' argument");
                }
            }
        }
    }

    private List<Parameters> sequence(Map<String, Object> args, SearchSpace s, String context) {
        TunerDriver d = new TunerDriver(create(args, context), s, context).start();
        List<Parameters> out = new ArrayList<>();
        for (TunerDriver.Suggestion x : d.run(SEQUENCE, 1, TunerDriver.contractMetric(s))) {
            out.add(x.parameters());
        }
        return out;
    }

    private void checkBatch() {
        for (Map.Entry<String, SearchSpace> e : oneSpaceChecks().entrySet()) {
            String context = context(Check.BATCH, e.getKey());
            SearchSpace s = e.getValue();
            TunerDriver d = new TunerDriver(create(context), s, context).start();
            EncodedSpace encoded = EncodedSpace.of(s);
            OptionalLong size = s.size();
            for (int round = 0; round < 2; round++) {
                long first = d.nextId();
                List<TunerDriver.Suggestion> batch = d.suggest(BATCH);
                long expected = size.isPresent() ? Math.max(0, Math.min(BATCH, size.getAsLong() - first)) : BATCH;
                if (batch.size() < expected) {
                    throw new AssertionError(context + ": generateMultipleParameters of " + BATCH + " ids from "
                            + first + " returned only " + batch.size() + " parameter sets");
                }
                Map<String, Long> seen = new LinkedHashMap<>();
                for (TunerDriver.Suggestion x : batch) {
                    Long before = seen.putIfAbsent(key(encoded, x.parameters()), x.parameterId());
                    if (before != null) {
                        throw new AssertionError(context + ": the batch of " + BATCH + " ids from " + first
                                + " suggests the same parameters for parameter ids " + before + " and " + x.parameterId()
                                + ": " + x.parameters().values());
                    }
                }
                ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(s);
                for (TunerDriver.Suggestion x : batch) {
                    d.report(x, metric.applyAsDouble(x.parameters()));
                }
            }
        }
    }

    private void checkImportData() {
        for (Map.Entry<String, SearchSpace> e : oneSpaceChecks().entrySet()) {
            String context = context(Check.IMPORT_DATA, e.getKey());
            SearchSpace s = e.getValue();
            ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(s);
            SplittableRandom rng = new SplittableRandom(20_240_611L);
            List<ImportedTrial> imported = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Parameters p = s.sample(rng);
                imported.add(new ImportedTrial(p, Metric.of(metric.applyAsDouble(p)),
                        Map.of("trialJobId", "imported" + i)));
            }
            TunerDriver d = new TunerDriver(create(context), s, context).start();
            d.importData(imported);
            List<TunerDriver.Suggestion> after = d.run(SEQUENCE, 1, metric);
            d.run(SEQUENCE + BATCH / 2, BATCH / 2, metric);
            OptionalLong size = s.size();
            if (after.isEmpty() && (size.isEmpty() || size.getAsLong() > imported.size())) {
                throw new AssertionError(context + ": after importData of " + imported.size()
                        + " trials the tuner made no suggestion (" + d.exhaustionMessage() + ")");
            }
        }
    }

    private void checkResume() {
        ResumeCheck check = new ResumeCheck(this::create);
        for (Map.Entry<String, SearchSpace> e : oneSpaceChecks().entrySet()) {
            check.continuesTheSequence(e.getValue(), context(Check.RESUME, e.getKey()));
        }
        if (space == null && !skipped.containsKey(Check.NO_DUPLICATES)) {
            check.repeatsNothing(ContractSpaces.finite(), context(Check.RESUME, "finite"));
        }
    }

    private void checkNoDuplicates() {
        SearchSpace s = ContractSpaces.finite();
        String context = context(Check.NO_DUPLICATES, "finite");
        long size = s.size().getAsLong();
        TunerDriver d = new TunerDriver(create(context), s, context).start();
        ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(s);
        List<TunerDriver.Suggestion> all = new ArrayList<>(d.run((int) size / 2, 1, metric));
        all.addAll(d.run((int) (size - all.size()), 4, metric));
        if (all.size() < size) {
            throw new AssertionError(context + ": the tuner had no more trials after " + all.size() + " of the space's "
                    + size + " parameter sets (" + d.exhaustionMessage() + ")");
        }
        requireDistinct(all, s, context, "over a run on a space of " + size);
    }

    private void checkExhaustion() {
        SearchSpace s = ContractSpaces.tinyFinite();
        String context = context(Check.EXHAUSTION, "tiny-finite");
        int size = (int) s.size().getAsLong();
        ToDoubleFunction<Parameters> metric = TunerDriver.contractMetric(s);
        TunerDriver d = new TunerDriver(create(context), s, context).start();
        List<TunerDriver.Suggestion> all = d.run(size, 1, metric);
        if (all.size() < size) {
            throw new AssertionError(context + ": the tuner had no more trials after " + all.size() + " of the space's "
                    + size + " parameter sets");
        }
        requireDistinct(all, s, context, "on a space of " + size);
        Tuner tuner = d.tuner();
        try {
            Parameters extra = tuner.generateParameters(size);
            throw new AssertionError(context + ": all " + size + " parameter sets of the space were suggested, yet"
                    + " generateParameters(" + size + ") returned " + extra.values()
                    + " instead of throwing NoMoreTrialsException");
        } catch (NoMoreTrialsException expected) {
            // the contract
        } catch (RuntimeException x) {
            throw new AssertionError(context + ": once the space was exhausted generateParameters(" + size
                    + ") threw " + x + " instead of NoMoreTrialsException", x);
        }
        TunerDriver batch = new TunerDriver(create(context), s, context + " (one batch of " + BATCH + ")").start();
        List<TunerDriver.Suggestion> got = batch.suggest(BATCH);
        if (got.size() != size) {
            throw new AssertionError(context + ": generateMultipleParameters of " + BATCH + " ids on a space of " + size
                    + " returned " + got.size() + " parameter sets, expected exactly " + size);
        }
        requireDistinct(got, s, context, "in one batch of " + BATCH + " on a space of " + size);
    }

    // ---- helpers ----

    private Map<String, SearchSpace> oneSpaceChecks() {
        if (space != null) {
            return Map.of("given", space);
        }
        Map<String, SearchSpace> m = new LinkedHashMap<>();
        m.put("all-types", ContractSpaces.allTypes());
        m.put("nested", ContractSpaces.nested());
        m.keySet().removeAll(skippedSpaces.keySet());
        if (m.isEmpty()) {
            throw new IllegalStateException("both 'all-types' and 'nested' are skipped: give a space with withSpace");
        }
        return m;
    }

    private static void requireDistinct(List<TunerDriver.Suggestion> all, SearchSpace s, String context, String where) {
        EncodedSpace encoded = EncodedSpace.of(s);
        Map<String, Long> seen = new LinkedHashMap<>();
        for (TunerDriver.Suggestion x : all) {
            Long before = seen.putIfAbsent(key(encoded, x.parameters()), x.parameterId());
            if (before != null) {
                throw new AssertionError(context + ": parameter ids " + before + " and " + x.parameterId()
                        + " got the same parameters " + x.parameters().values() + " " + where
                        + " while unseen parameter sets remained");
            }
        }
    }

    /** A canonical form of a suggestion, so that 2 and 2.0 count as the same value. */
    private static String key(EncodedSpace encoded, Parameters p) {
        return Arrays.toString(encoded.encode(p));
    }

    private Tuner create(String context) {
        return create(arguments, context);
    }

    private Tuner create(Map<String, Object> args, String context) {
        Tuner t;
        try {
            t = factory.apply(ClassArguments.of(args));
        } catch (RuntimeException e) {
            throw new AssertionError(context + ": creating the tuner with arguments " + args + " failed: " + e, e);
        }
        if (t == null) {
            throw new AssertionError(context + ": the factory returned null for arguments " + args);
        }
        return t;
    }

    /** The provider's name, or for {@link #forTuner} the class name of an instance made for the purpose. */
    private String label() {
        if (name != null) {
            return name;
        }
        try {
            Tuner t = factory.apply(ClassArguments.of(arguments));
            if (t != null) {
                Class<?> c = t.getClass();
                return c.getSimpleName().isEmpty() ? c.getName() : c.getSimpleName();
            }
        } catch (RuntimeException e) {
            // the check itself reports the failure to create the tuner
        }
        return "tuner";
    }

    private String context(Check check, String spaceName) {
        return "TunerTestKit check " + check + " (" + check.description() + ") failed for tuner '" + label()
                + "' on space '" + spaceName + "'";
    }

    @Override
    public String toString() {
        return "TunerTestKit[" + (name != null ? name : "forTuner") + ", arguments=" + arguments + (skipped.isEmpty() ? "" : ", skipped=" + skipped.keySet()) + "]";
    }
}
