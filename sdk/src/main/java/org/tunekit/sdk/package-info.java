/**
 * The plugin API of Tunekit: the {@link org.tunekit.sdk.Tuner}, {@link org.tunekit.sdk.Assessor} and
 * {@link org.tunekit.sdk.Advisor} interfaces a plugin implements, and the immutable value types they
 * exchange with the dispatcher. Nothing here depends on a JSON library: values are plain Java
 * ({@code Long}, {@code Double}, {@code String}, {@code Boolean}, {@code null}, {@code List}, {@code Map}).
 */
package org.tunekit.sdk;
