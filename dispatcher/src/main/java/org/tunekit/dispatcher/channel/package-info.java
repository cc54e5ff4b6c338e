/**
 * Transports for commands: pipe framing over streams ({@code stdio:}, {@code fd:3,4}), NNI 3's
 * WebSocket client ({@code ws://}), and ZeroMQ ({@code tcp://}), chosen by a channel URI.
 */
package org.tunekit.dispatcher.channel;
