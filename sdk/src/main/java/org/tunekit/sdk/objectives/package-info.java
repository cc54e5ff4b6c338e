/**
 * Several objectives at once: the {@code objectives} class argument ({@link Objectives}), Pareto
 * dominance, non-dominated sorting and crowding distance ({@link Pareto}), and the exact hypervolume
 * of a front ({@link Hypervolume}). Everything here works on <em>losses</em>: every objective turned
 * so that smaller is better, as {@link Objectives#losses} returns them.
 */
package org.tunekit.sdk.objectives;
