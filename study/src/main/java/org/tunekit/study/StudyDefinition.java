package org.tunekit.study;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.objectives.Objective;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.space.SearchSpace;

/**
 * What a study is, stored when it is created and compared when it is loaded: its name, space, algorithms (with
 * the class arguments they are created with, which carry the objectives) and objectives. Its config form is an
 * NNI experiment config, so that {@code tunekit results} and the dashboard read a study's store as a run's.
 *
 * @param name              the study's name
 * @param space             the search space
 * @param tuner             the tuner's name
 * @param tunerArguments    its class arguments, with {@code optimize_mode} or {@code objectives}
 * @param assessor          the assessor's name, or {@code null}
 * @param assessorArguments its class arguments
 * @param objectives        what the study optimises, in order; one with metric {@code default} for a single objective
 */
record StudyDefinition(String name, SearchSpace space, String tuner, Map<String, Object> tunerArguments, String assessor,
                       Map<String, Object> assessorArguments, List<Objective> objectives) {

    /** The command a study's stored config names: a study's trials run in the program that holds it. */
    static final String TRIAL_COMMAND = "(trials run in the program that holds the study)";

    StudyDefinition {
        tunerArguments = asStored(tunerArguments);
        assessorArguments = asStored(assessorArguments);
        objectives = List.copyOf(objectives);
    }

    /** Arguments as they read back from the store (whole numbers as {@code Long}), so that a stored definition equals the given one. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> asStored(Map<String, Object> arguments) {
        return Map.copyOf((Map<String, Object>) org.tunekit.sdk.internal.Json.parse(org.tunekit.sdk.internal.Json.write(arguments)));
    }

    boolean maximize() {
        return objectives.get(0).mode() == OptimizeMode.MAXIMIZE;
    }

    /** The definition as an NNI experiment config. */
    Map<String, Object> toConfig() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experimentName", name);
        m.put("searchSpace", space.definition());
        m.put("trialCommand", TRIAL_COMMAND);
        m.put("trialCodeDirectory", System.getProperty("user.dir"));
        m.put("trialConcurrency", 1L);
        m.put("tuner", Map.of("name", tuner, "classArgs", tunerArguments));
        if (assessor != null) {
            m.put("assessor", Map.of("name", assessor, "classArgs", assessorArguments));
        }
        m.put("trainingService", Map.of("platform", "local"));
        return m;
    }

    /** Reads a config written by {@link #toConfig}. */
    @SuppressWarnings("unchecked")
    static StudyDefinition fromConfig(Map<String, Object> config, String where) {
        try {
            String name = (String) config.get("experimentName");
            SearchSpace space = SearchSpace.parse((Map<String, Object>) config.get("searchSpace"));
            Map<String, Object> tuner = (Map<String, Object>) config.get("tuner");
            Map<String, Object> tunerArgs = (Map<String, Object>) tuner.getOrDefault("classArgs", Map.of());
            Map<String, Object> assessor = (Map<String, Object>) config.get("assessor");
            return new StudyDefinition(name, space, (String) tuner.get("name"), tunerArgs,
                    assessor == null ? null : (String) assessor.get("name"),
                    assessor == null ? Map.of() : (Map<String, Object>) assessor.getOrDefault("classArgs", Map.of()),
                    objectivesOf(tunerArgs));
        } catch (ClassCastException | NullPointerException | IllegalArgumentException e) {
            throw new StudyException(where + " does not hold a study's definition: " + e.getMessage(), e);
        }
    }

    /** The objectives the tuner's class arguments name: {@code objectives}, else {@code optimize_mode} on {@code default}. */
    static List<Objective> objectivesOf(Map<String, Object> tunerArguments) {
        ClassArguments args = ClassArguments.of(tunerArguments);
        Objectives several = Objectives.from(args);
        if (!several.isEmpty()) {
            return several.list();
        }
        List<Objective> one = new ArrayList<>();
        one.add(Objective.of("default", OptimizeMode.from(args, OptimizeMode.MAXIMIZE)));
        return one;
    }
}
