/**
 * The provider SPI: how the dispatcher finds algorithms. A plugin jar lists its providers in
 * {@code META-INF/services/org.tunekit.sdk.spi.TunerProvider} (and likewise for assessors and
 * advisors); the dispatcher finds them with {@link java.util.ServiceLoader} and matches an
 * experiment config's {@code name} against {@link org.tunekit.sdk.spi.AlgorithmProvider#name()},
 * ignoring case.
 *
 * <h2>Versions and compatibility</h2>
 *
 * <p>The SPI is every public type, method and field of the {@code org.tunekit.sdk} packages, and it
 * has a version, {@link org.tunekit.sdk.spi.SpiVersion}. The rule:
 * <ul>
 *   <li>adding something (a type, a method with a default body on an interface, a method or
 *       constructor on a class) raises the <b>minor</b> version;</li>
 *   <li>removing or changing anything (a signature, a return type, a default body made abstract),
 *       or adding an abstract method to an interface a plugin implements, raises the <b>major</b>
 *       version and resets the minor to 0.</li>
 * </ul>
 * A plugin built against SPI {@code a.b} runs on a Tunekit with SPI {@code a.c} for any
 * {@code c >= b}. The version a plugin was built against is recorded in its jar by the SDK while it
 * compiles (see {@link org.tunekit.sdk.spi.SpiVersion}); the dispatcher refuses a plugin that needs a
 * newer SPI, or whose classes lack a method the running SPI requires, with a message naming the jar,
 * the provider and both versions, before the experiment starts.
 *
 * <p>The surface is recorded in {@code sdk/spi-signatures.txt}, and the build fails when it changes
 * without that file and, as the rule requires, the version being updated; the failure says what
 * changed and which version to set.
 */
package org.tunekit.sdk.spi;
