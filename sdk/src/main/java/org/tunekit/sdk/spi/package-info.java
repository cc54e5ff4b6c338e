/**
 * The provider SPI: how the dispatcher finds algorithms. A plugin jar lists its providers in
 * {@code META-INF/services/org.tunekit.sdk.spi.TunerProvider} (and likewise for assessors and
 * advisors); the dispatcher finds them with {@link java.util.ServiceLoader} and matches an
 * experiment config's {@code name} against {@link org.tunekit.sdk.spi.AlgorithmProvider#name()},
 * ignoring case.
 */
package org.tunekit.sdk.spi;
