/**
 * Build-time support shipped in the SDK jar that is not part of the plugin SPI: it is left out of the
 * SPI signature check and may change in any release.
 */
package org.tunekit.sdk.internal;
