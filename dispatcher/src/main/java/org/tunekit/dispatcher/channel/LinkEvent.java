package org.tunekit.dispatcher.channel;

/**
 * What a WebSocket link to the manager puts in the channel's inbox besides commands and protocol
 * errors: the end of the conversation, a dropped connection, or the manager given up on.
 */
sealed interface LinkEvent {

    /** The manager ended the conversation: {@code _bye_} or a server Close. */
    record End(String why) implements LinkEvent {}

    /** The connection of this generation failed without a Close. */
    record Dropped(int generation, Throwable cause) implements LinkEvent {}

    /** The channel gave up on the manager. */
    record Lost(String why) implements LinkEvent {}
}
