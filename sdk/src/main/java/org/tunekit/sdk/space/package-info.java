/**
 * The search-space model: NNI's search-space JSON parsed once into immutable, validated
 * {@link org.tunekit.sdk.space.Parameter}s (one type per kind of parameter, nested {@code choice}s as
 * conditional sub-spaces), with seeded sampling and an {@link org.tunekit.sdk.space.EncodedSpace
 * encoded numeric view} that model-based tuners share.
 */
package org.tunekit.sdk.space;
