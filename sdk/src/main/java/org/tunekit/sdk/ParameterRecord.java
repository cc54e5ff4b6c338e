package org.tunekit.sdk;

/**
 * A parameter record as the manager keeps it: id, where it came from, and the parameters.
 *
 * @param parameterId     the id, or {@code null} when the manager gave none
 * @param parameterSource {@code "algorithm"}, {@code "customized"} or {@code "resumed"}
 * @param parameters      the parameter set
 */
public record ParameterRecord(Long parameterId, String parameterSource, Parameters parameters) {}
