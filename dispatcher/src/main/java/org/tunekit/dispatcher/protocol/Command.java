package org.tunekit.dispatcher.protocol;

import java.util.Objects;

/**
 * One command: a type and its payload text (often JSON, may be empty).
 *
 * @param type    the command
 * @param payload the payload; never {@code null}
 */
public record Command(CommandType type, String payload) {
    /** Checks the fields. */
    public Command {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
    }

    /** A command with an empty payload. */
    public static Command of(CommandType type) {
        return new Command(type, "");
    }

    @Override
    public String toString() {
        String p = payload.length() > 200 ? payload.substring(0, 200) + "..." : payload;
        return type.code() + " " + p;
    }
}
