package org.tunekit.dispatcher.protocol;

import java.util.Objects;

/**
 * One command: a type and its payload, as text (often JSON, may be empty) or, for a command passed
 * within the process, as the record it is read into.
 *
 * <p>A command from or to a wire carries text. A manager in the same process as its dispatcher (over an
 * {@link org.tunekit.dispatcher.channel.InMemoryChannel}) posts a trial's metric and its end as records
 * ({@link #of(Payloads.MetricData)}, {@link #of(Payloads.TrialEndData)}): the dispatcher takes them as
 * they are ({@link Payloads#metric}, {@link Payloads#trialEnd}) and no JSON is written or read on the
 * way. Such a command never goes on a wire: its text is empty.
 *
 * @param type    the command
 * @param payload the payload text; never {@code null}, empty when {@code data} holds the payload
 * @param data    the payload as a record, for a command passed within the process, else {@code null}
 */
public record Command(CommandType type, String payload, Payloads.Data data) {
    /** Checks the fields: a record payload goes with its command's type, and with no text. */
    public Command {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
        if (data != null) {
            CommandType expected = data instanceof Payloads.MetricData ? CommandType.REPORT_METRIC_DATA : CommandType.TRIAL_END;
            if (type != expected || !payload.isEmpty()) {
                throw new IllegalArgumentException("a " + data.getClass().getSimpleName() + " is the payload of " + expected.code()
                        + " alone, with no text; got " + type.code() + (payload.isEmpty() ? "" : " with text"));
            }
        }
    }

    /**
     * The payload as a wire carries it. A command whose payload is a record exists only between a
     * manager and a dispatcher in one process, and writing it to a wire would send an empty payload.
     *
     * @throws IllegalStateException for a command whose payload is a record
     */
    public String wireText() {
        if (data != null) {
            throw new IllegalStateException("a " + type.code() + " whose payload is a " + data.getClass().getSimpleName()
                    + " is for a dispatcher in the same process and cannot be written to a channel");
        }
        return payload;
    }

    /** A command with a payload of text. */
    public Command(CommandType type, String payload) {
        this(type, payload, null);
    }

    /** A command with an empty payload. */
    public static Command of(CommandType type) {
        return new Command(type, "");
    }

    /** An {@code ME} whose payload is already read, for a dispatcher in the same process. */
    public static Command of(Payloads.MetricData metric) {
        return new Command(CommandType.REPORT_METRIC_DATA, "", Objects.requireNonNull(metric, "metric"));
    }

    /** An {@code EN} whose payload is already read, for a dispatcher in the same process. */
    public static Command of(Payloads.TrialEndData end) {
        return new Command(CommandType.TRIAL_END, "", Objects.requireNonNull(end, "end"));
    }

    @Override
    public String toString() {
        if (data != null) {
            return type.code() + " " + data;
        }
        String p = payload.length() > 200 ? payload.substring(0, 200) + "..." : payload;
        return type.code() + " " + p;
    }
}
