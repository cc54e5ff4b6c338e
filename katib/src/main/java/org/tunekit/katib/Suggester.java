package org.tunekit.katib;

import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.ExperimentSpec;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.Metric;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.InvalidSearchSpaceException;

/**
 * Answers {@code GetSuggestions} from the request alone: no state is kept between calls.
 *
 * <p>Each call builds the experiment's tuner afresh, gives it every trial of the request that has
 * the objective metric as data (in order of completion), and asks it for
 * {@code current_request_number} parameter sets. An answer equal to a trial of the request (running,
 * failed or done) or to an earlier answer of the same call is dropped and the tuner asked again, so
 * no parameter set is suggested twice; only when a finite space has no new point left are points
 * visited again (the trials', in order), since the controller needs exactly the number it asked for.
 * For TPE, the trials still running are data too, at the worst value completed so far (see
 * {@link #lies}).
 *
 * <p>The tuner's seed is derived from the experiment's name and the seed its settings give (0 when
 * none), and, but for the tuners whose seed must stay fixed (grid and Sobol walk a fixed sequence;
 * CMA-ES replays the completed trials as its generations and draws the next members of the current
 * one, the running trials among them, which are dropped as known), from
 * {@code total_request_number}, which grows with every call. So the answer is a function of the
 * request: a service killed and started again, or another replica, given the same request, gives
 * the same answer, and the next request gets new points.
 */
final class Suggester {
    private static final Logger LOG = LoggerFactory.getLogger(Suggester.class);

    /** How many extra parameter sets a call may ask of its tuner beyond the duplicates it must skip. */
    private static final int SPARE_ATTEMPTS = 64;

    private final Algorithms algorithms;
    private final int maxAssignments;

    Suggester(Algorithms algorithms, int maxAssignments) {
        this.algorithms = algorithms;
        this.maxAssignments = maxAssignments;
    }

    /** What one experiment needs before any trial is looked at. */
    record Setup(KatibSpace space, Algorithms.Recipe recipe, OptimizeMode mode, String metric, KatibHyperband.Plan hyperband) {
        Setup(KatibSpace space, Algorithms.Recipe recipe, OptimizeMode mode, String metric) {
            this(space, recipe, mode, metric, null);
        }
    }

    private Setup setup(Experiment experiment) {
        if (!experiment.hasSpec()) {
            throw KatibException.invalid("the request has no experiment spec");
        }
        ExperimentSpec spec = experiment.getSpec();
        KatibObjective objective = KatibObjective.of(spec);
        OptimizeMode mode = objective.mode();
        String metric = objective.metric();
        KatibSpace space = KatibSpace.of(spec.getParameterSpecs().getParametersList());
        if (spec.getAlgorithm().getAlgorithmName().equals(KatibHyperband.NAME)) {
            KatibHyperband.Plan plan = KatibHyperband.plan(experiment.getName(), spec);
            return new Setup(space, algorithms.resolve("random", List.of()), mode, metric, plan);
        }
        Algorithms.Recipe recipe = Algorithms.forParameters(algorithms.resolve(spec.getAlgorithm().getAlgorithmName(),
                spec.getAlgorithm().getAlgorithmSettingsList()), space.size());
        return new Setup(space, recipe, mode, metric);
    }

    /**
     * Checks that the experiment's space, objective, algorithm and settings can be served: the
     * tuner is built and given the space.
     *
     * @throws KatibException naming what is wrong
     */
    void validate(Experiment experiment) {
        Setup s = setup(experiment);
        newTuner(s, seed(s, experiment.getName(), 0));
    }

    /**
     * Answers one request.
     *
     * @throws KatibException for a request that cannot be answered, naming why
     */
    GetSuggestionsReply suggest(GetSuggestionsRequest request) {
        int wanted = request.getCurrentRequestNumber();
        if (wanted < 1 || wanted > maxAssignments) {
            throw KatibException.invalid("current_request_number must be between 1 and " + maxAssignments + ", got " + wanted);
        }
        if (!request.hasExperiment()) {
            throw KatibException.invalid("the request has no experiment");
        }
        Setup s = setup(request.getExperiment());
        if (s.hyperband() != null) {
            return call(s, () -> KatibHyperband.suggest(s.hyperband(), s.space(), s.recipe(), s.mode(), s.metric(),
                    request.getTrialsList(), wanted));
        }
        long total = request.getTotalRequestNumber();
        Tuner tuner = newTuner(s, seed(s, request.getExperiment().getName(), total));

        // every trial is known, so that none is suggested again; the completed ones are data
        List<Trial> trials = new ArrayList<>(request.getTrialsList());
        trials.sort(Comparator.comparing((Trial t) -> t.getStatus().getCompletionTime().isEmpty() ? "~" : t.getStatus().getCompletionTime())
                .thenComparing(Trial::getName));
        Set<String> known = new HashSet<>();
        List<List<ParameterAssignment>> knownPoints = new ArrayList<>();
        List<ImportedTrial> data = new ArrayList<>();
        List<Parameters> running = new ArrayList<>();
        int outside = 0;
        for (Trial t : trials) {
            List<ParameterAssignment> a = t.getSpec().getParameterAssignments().getAssignmentsList();
            KatibSpace.Point point = s.space().read(a);
            if (point.key() == null) {
                outside++;
                continue;
            }
            if (known.add(point.key())) {
                knownPoints.add(a);
            }
            Parameters p = point.parameters();
            Double value = objective(t, s.metric());
            if (value != null) {
                if (p == null) {
                    outside++;
                } else {
                    data.add(new ImportedTrial(p, org.tunekit.sdk.Metric.of(value)));
                }
            } else if (p != null && isRunning(t)) {
                running.add(p);
            }
        }
        data.addAll(lies(s, data, running));
        if (outside > 0) {
            LOG.debug("experiment {}: {} trials lie outside the search space and are not used as data", request.getExperiment().getName(), outside);
        }
        if (!data.isEmpty()) {
            run(s, () -> tuner.importData(data));
        }

        List<List<ParameterAssignment>> answers = new ArrayList<>(wanted);
        long nextId = Math.max(0, total - wanted);
        int budget = wanted + known.size() + SPARE_ATTEMPTS;
        boolean exhausted = false;
        while (answers.size() < wanted && budget > 0 && !exhausted) {
            int ask = Math.min(wanted - answers.size(), budget);
            List<Long> ids = new ArrayList<>(ask);
            for (int i = 0; i < ask; i++) {
                ids.add(nextId++);
            }
            List<Parameters> got = call(s, () -> tuner.generateMultipleParameters(ids));
            budget -= ask;
            exhausted = got.size() < ask;
            for (Parameters p : got) {
                List<ParameterAssignment> a = s.space().toKatib(p);
                if (known.add(s.space().key(a))) {
                    answers.add(a);
                    if (answers.size() == wanted) {
                        break;
                    }
                }
            }
        }
        if (answers.size() < wanted) {
            if (!s.space().finite() || knownPoints.isEmpty()) {
                throw new KatibException(Status.Code.RESOURCE_EXHAUSTED, "algorithm " + s.recipe().name() + " gave "
                        + answers.size() + " new parameter sets of the " + wanted + " asked for");
            }
            LOG.warn("experiment {}: the search space has no new point left; {} of {} assignments visit trials' points again",
                    request.getExperiment().getName(), wanted - answers.size(), wanted);
            for (long i = total; answers.size() < wanted; i++) {
                answers.add(knownPoints.get((int) Math.floorMod(i, (long) knownPoints.size())));
            }
        }
        GetSuggestionsReply.Builder reply = GetSuggestionsReply.newBuilder();
        for (List<ParameterAssignment> a : answers) {
            reply.addParameterAssignmentsBuilder().addAllAssignments(a);
        }
        return reply.build();
    }

    /**
     * Sends made-up requests (Katib's common algorithms and hyperband over a small space, with up to 60 trials)
     * through {@code call} (the service's own socket, so that the whole path is exercised), so that
     * the code a request runs is compiled before the first real one. The answers are thrown away;
     * nothing is kept.
     *
     * @return how many requests were answered
     */
    int warmUp(java.util.function.Function<GetSuggestionsRequest, GetSuggestionsReply> call) {
        List<org.tunekit.katib.api.ParameterSpec> params = List.of(
                org.tunekit.katib.api.ParameterSpec.newBuilder().setName("x").setParameterType(org.tunekit.katib.api.ParameterType.DOUBLE)
                        .setFeasibleSpace(org.tunekit.katib.api.FeasibleSpace.newBuilder().setMin("0.01").setMax("0.05")).build(),
                org.tunekit.katib.api.ParameterSpec.newBuilder().setName("n").setParameterType(org.tunekit.katib.api.ParameterType.INT)
                        .setFeasibleSpace(org.tunekit.katib.api.FeasibleSpace.newBuilder().setMin("1").setMax("64")).build());
        int calls = 0;
        // 12 experiments, 720 requests (about 3 s on two idle cores): with half as many, cmaes still
        // answered a 30-trial experiment in 4.9 ms (median) rather than 3.7 ms, over katib-lab's driver
        for (String algorithm : List.of("tpe", "random", "cmaes", "multivariate-tpe", KatibHyperband.NAME, "tpe", "random", "cmaes",
                "random", "cmaes", "random", "tpe")) {
            org.tunekit.katib.api.AlgorithmSpec.Builder alg = org.tunekit.katib.api.AlgorithmSpec.newBuilder().setAlgorithmName(algorithm);
            if (algorithm.equals(KatibHyperband.NAME)) {
                alg.addAlgorithmSettings(org.tunekit.katib.api.AlgorithmSetting.newBuilder().setName("resource_name").setValue("n"))
                        .addAlgorithmSettings(org.tunekit.katib.api.AlgorithmSetting.newBuilder().setName("r_l").setValue("27"));
            }
            Experiment e = Experiment.newBuilder().setName("warm-up").setSpec(ExperimentSpec.newBuilder()
                    .setParameterSpecs(ExperimentSpec.ParameterSpecs.newBuilder().addAllParameters(params))
                    .setObjective(org.tunekit.katib.api.ObjectiveSpec.newBuilder().setType(ObjectiveType.MINIMIZE).setObjectiveMetricName("loss"))
                    .setAlgorithm(alg)).build();
            List<Trial> trials = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                GetSuggestionsReply r = call.apply(GetSuggestionsRequest.newBuilder().setExperiment(e).addAllTrials(trials)
                        .setCurrentRequestNumber(1).setTotalRequestNumber(i + 1).build());
                calls++;
                List<ParameterAssignment> a = r.getParameterAssignments(0).getAssignmentsList();
                double x = Double.parseDouble(a.get(0).getValue());
                trials.add(Trial.newBuilder().setName("warm-up-" + i)
                        .setSpec(org.tunekit.katib.api.TrialSpec.newBuilder().setParameterAssignments(
                                org.tunekit.katib.api.TrialSpec.ParameterAssignments.newBuilder().addAllAssignments(a)))
                        .setStatus(TrialStatus.newBuilder().setCondition(TrialStatus.TrialConditionType.SUCCEEDED)
                                .setCompletionTime(String.format("2026-01-01T00:%02d:%02dZ", i / 60, i % 60))
                                .setObservation(org.tunekit.katib.api.Observation.newBuilder().addMetrics(
                                        Metric.newBuilder().setName("loss").setValue(Double.toString((x - 0.03) * (x - 0.03))))))
                        .build());
            }
        }
        return calls;
    }

    private static boolean isRunning(Trial t) {
        TrialStatus.TrialConditionType c = t.getStatus().getCondition();
        return c == TrialStatus.TrialConditionType.CREATED || c == TrialStatus.TrialConditionType.RUNNING;
    }

    /**
     * TPE's constant liar for a rebuilt tuner: the trials still running, as observations of the worst
     * value completed so far, once TPE has left its random start-up (before, they would only end it
     * early). Without them every suggestion of a parallel experiment is drawn from the same model
     * and the batch piles onto one spot; with them as bad points the next suggestion looks
     * elsewhere. Other algorithms get no lies (for CMA-ES a made-up worst value would distort
     * the ranking of its generation).
     */
    static List<ImportedTrial> lies(Setup s, List<ImportedTrial> data, List<Parameters> running) {
        if (running.isEmpty() || data.isEmpty() || !s.recipe().provider().name().equalsIgnoreCase("TPE")
                || data.size() < startupTrials(s.recipe())) {
            return List.of();
        }
        double worst = s.mode() == OptimizeMode.MAXIMIZE ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        for (ImportedTrial t : data) {
            double v = t.metric().value();
            worst = s.mode() == OptimizeMode.MAXIMIZE ? Math.min(worst, v) : Math.max(worst, v);
        }
        List<ImportedTrial> out = new ArrayList<>(running.size());
        for (Parameters p : running) {
            out.add(new ImportedTrial(p, org.tunekit.sdk.Metric.of(worst)));
        }
        return out;
    }

    /** TPE's {@code n_startup_jobs} as the recipe gives it (Tunekit's TPE default, 20, when it gives none). */
    private static int startupTrials(Algorithms.Recipe r) {
        if (r.arguments().get("tpe_args") instanceof java.util.Map<?, ?> tpe && tpe.get("n_startup_jobs") instanceof Number n) {
            return n.intValue();
        }
        return 20;
    }

    /** The trial's objective value, or {@code null} when it has none (running, failed) or it does not parse. */
    static Double objective(Trial t, String metric) {
        TrialStatus.TrialConditionType c = t.getStatus().getCondition();
        if (c != TrialStatus.TrialConditionType.SUCCEEDED && c != TrialStatus.TrialConditionType.EARLYSTOPPED) {
            return null;
        }
        for (Metric m : t.getStatus().getObservation().getMetricsList()) {
            if (m.getName().equals(metric)) {
                try {
                    double v = Double.parseDouble(m.getValue().trim());
                    return Double.isNaN(v) || Double.isInfinite(v) ? null : v;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private Tuner newTuner(Setup s, long seed) {
        Tuner tuner = s.recipe().create(s.mode(), seed);
        call(s, () -> {
            tuner.updateSearchSpace(s.space().space());
            return null;
        });
        return tuner;
    }

    /** The tuner's seed for one call (see the class comment). */
    static long seed(Setup s, String experiment, long total) {
        long h = mix(s.recipe().seed() == null ? 0 : s.recipe().seed());
        for (byte b : experiment.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h = mix(h);
        if (!s.recipe().sequence()) {
            h = mix(h + total * 0x9E3779B97F4A7C15L);
        }
        return h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private interface TunerCall<T> {
        T run();
    }

    private static void run(Setup s, Runnable r) {
        call(s, () -> {
            r.run();
            return null;
        });
    }

    private static String name(Setup s) {
        return s.hyperband() != null ? KatibHyperband.NAME : s.recipe().name();
    }

    /** Runs a tuner call; its failures become statuses that name the algorithm. */
    private static <T> T call(Setup s, TunerCall<T> c) {
        try {
            return c.run();
        } catch (KatibException e) {
            throw e;
        } catch (InvalidSearchSpaceException | InvalidClassArgumentException e) {
            throw KatibException.invalid("algorithm " + name(s) + " cannot work on this experiment: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("algorithm {} failed", name(s), e);
            throw new KatibException(Status.Code.INTERNAL, "algorithm " + name(s) + " failed: " + e);
        }
    }
}
