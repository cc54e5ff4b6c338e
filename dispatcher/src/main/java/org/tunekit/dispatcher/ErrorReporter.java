package org.tunekit.dispatcher;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.channel.ChannelLostException;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.ProtocolException;

/** Reports a failure to the manager as {@code ER}: a one-line description, then the stack trace. */
public final class ErrorReporter {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorReporter.class);

    private ErrorReporter() {}

    /**
     * Logs the failure, sends {@code ER}, flushes and closes the channel. Never throws. When the channel gave up on
     * the manager, no {@code ER} can reach it, so the description also goes to stderr (the log may be a file).
     */
    public static void report(CommandChannel channel, Throwable failure) {
        String message = describe(failure);
        LOG.error("{}", message, failure);
        ChannelLostException lost = channelLost(failure);
        if (lost != null) {
            System.err.println("tunekit dispatch: " + lost.getMessage() + " (exit status " + ChannelLostException.EXIT_STATUS + ")");
        }
        try {
            channel.send(new Command(CommandType.ERROR, message + "\n\n" + stackTrace(failure)));
            channel.flush();
        } catch (Throwable sendFailure) {
            LOG.error("could not report the error to the manager", sendFailure);
        }
        channel.close();
    }

    /** The {@link ChannelLostException} among the failure and its causes, or {@code null}. */
    public static ChannelLostException channelLost(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ChannelLostException e) {
                return e;
            }
        }
        return null;
    }

    /** The one-line description of a failure that leads the {@code ER} text. */
    public static String describe(Throwable t) {
        if (t instanceof PluginException p) {
            return p.getMessage() + (p.getCause() != null ? ": " + p.getCause() : "");
        }
        if (t instanceof ProtocolException) {
            return "protocol error: " + t.getMessage();
        }
        if (t instanceof java.io.IOException) {
            return "channel failed: " + t;
        }
        if (t instanceof org.tunekit.dispatcher.plugin.PluginConfigurationException) {
            return "bad experiment config: " + t.getMessage();
        }
        return "dispatcher failed: " + t;
    }

    private static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }
}
