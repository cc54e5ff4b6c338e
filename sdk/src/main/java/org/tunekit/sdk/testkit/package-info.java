/**
 * A test kit for plugin authors: {@link org.tunekit.sdk.testkit.TunerTestKit} checks a tuner against
 * the contract the dispatcher relies on and drives it through a run the way the dispatcher does;
 * {@link org.tunekit.sdk.testkit.AssessorTestKit} feeds an assessor learning curves and returns its
 * verdicts; {@link org.tunekit.sdk.testkit.AdvisorTestKit} runs an advisor like a manager with a few
 * trial slots and returns the trials it sent. It depends on nothing but the JDK and on no test framework: a failed check throws an
 * {@link java.lang.AssertionError} whose message names the check and what went wrong, so it works
 * under JUnit, TestNG or a plain {@code main}.
 */
package org.tunekit.sdk.testkit;
