package org.tunekit.dispatcher.protocol;

import java.io.IOException;

/**
 * Input that breaks the protocol: a malformed frame, an unknown code, a payload of the wrong shape.
 * The message says what was wrong and, for framing errors, at which byte of the stream.
 */
public class ProtocolException extends IOException {
    /** Creates the exception. */
    public ProtocolException(String message) {
        super(message);
    }

    /** Creates the exception with a cause. */
    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
