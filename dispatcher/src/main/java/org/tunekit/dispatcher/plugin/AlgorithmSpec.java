package org.tunekit.dispatcher.plugin;

import java.nio.file.Path;
import java.util.Map;
import org.tunekit.sdk.ClassArguments;

/**
 * A {@code tuner}, {@code assessor} or {@code advisor} entry of an experiment config: either a
 * {@code name} (a built-in or a plugin's provider) or a {@code className} with the
 * {@code codeDirectory} holding its jars; plus {@code classArgs}.
 *
 * @param kind          which kind of algorithm
 * @param name          the provider name, or {@code null}
 * @param className     the class name, or {@code null}
 * @param codeDirectory the directory of the class's jars, or {@code null} for the class path
 * @param arguments     the class arguments
 */
public record AlgorithmSpec(AlgorithmKind kind, String name, String className, Path codeDirectory, ClassArguments arguments) {

    /**
     * Reads a config entry. Accepts NNI 3's keys ({@code name}, {@code className},
     * {@code codeDirectory}, {@code classArgs}) and NNI 2's ({@code builtinTunerName},
     * {@code builtinAssessorName}, {@code builtinAdvisorName}, {@code codeDir}).
     */
    public static AlgorithmSpec fromConfig(AlgorithmKind kind, Map<?, ?> entry) {
        String label = kind.label();
        Object name = first(entry, "name", "builtin" + capitalize(label) + "Name");
        Object className = first(entry, "className", "class_name");
        Object codeDir = first(entry, "codeDirectory", "codeDir", "code_directory");
        Object args = first(entry, "classArgs", "class_args");
        if (name != null && !(name instanceof String)) {
            throw new PluginConfigurationException("the " + label + "'s \"name\" must be a string, got " + name);
        }
        if (className != null && !(className instanceof String)) {
            throw new PluginConfigurationException("the " + label + "'s \"className\" must be a string, got " + className);
        }
        if (name == null && className == null) {
            throw new PluginConfigurationException("the " + label + " entry of the experiment config has neither \"name\" nor \"className\": " + entry);
        }
        if (args != null && !(args instanceof Map)) {
            throw new PluginConfigurationException("the " + label + "'s \"classArgs\" must be an object, got " + args);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> argMap = (Map<String, Object>) args;
        return new AlgorithmSpec(kind, (String) name, (String) className,
                codeDir instanceof String s && !s.isBlank() ? Path.of(s) : null, ClassArguments.of(argMap));
    }

    /** What the entry names, for messages. */
    public String describe() {
        return name != null ? kind.label() + " '" + name + "'" : kind.label() + " class " + className;
    }

    private static Object first(Map<?, ?> m, String... keys) {
        for (String k : keys) {
            Object v = m.get(k);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
