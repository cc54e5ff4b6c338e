/**
 * Stand-ins for an experiment manager, published in the dispatcher's test jar for the end-to-end
 * tests: a WebSocket server that behaves as NNI 3's manager does, and a ZeroMQ ROUTER peer.
 */
package org.tunekit.dispatcher.testing;
