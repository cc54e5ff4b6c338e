/**
 * The wire protocol: command codes, the pipe framing, and the JSON shapes of payloads. Decoding is
 * strict and every error says what was wrong and where.
 */
package org.tunekit.dispatcher.protocol;
