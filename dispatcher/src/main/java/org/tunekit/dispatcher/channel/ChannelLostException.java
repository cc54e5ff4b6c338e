package org.tunekit.dispatcher.channel;

import java.io.IOException;

/**
 * The manager is unreachable and the channel has given up on it: it did not come back within the
 * give-up time after a drop, the first connection never came, or it took no reply for that long.
 * The dispatcher exits with {@link #EXIT_STATUS} after it.
 */
public final class ChannelLostException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The exit status of a dispatcher that gave up on its manager. */
    public static final int EXIT_STATUS = 3;

    /** @param message what was tried, for how long, and what failed last */
    public ChannelLostException(String message) {
        super(message);
    }
}
