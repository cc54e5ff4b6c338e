/**
 * Support shipped in the SDK jar that is not part of the plugin SPI: the build-time SPI version
 * recorder, the rule by which a request for trials is answered ({@link org.tunekit.sdk.internal.TrialRequests}),
 * the JSON reader and writer of the trial channels and the study library ({@link org.tunekit.sdk.internal.Json}),
 * shared by the SDK's test kit and Tunekit's dispatcher and benchmarks. It is left out of the SPI
 * signature check and may change in any release; plugins do not use it.
 */
package org.tunekit.sdk.internal;
