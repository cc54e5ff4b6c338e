/**
 * The dispatcher runtime: {@link org.tunekit.dispatcher.MsgDispatcherBase} (one reader, two queues,
 * one worker each, the error path) and {@link org.tunekit.dispatcher.MsgDispatcher} (NNI's standard
 * semantics over a tuner and an optional assessor).
 */
package org.tunekit.dispatcher;
