package org.tunekit.dispatcher.channel;

import java.util.Map;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * NNI 3's WebSocket messages: each command is one text message {@code {"type": "GE", "content": "3"}},
 * an absent {@code content} being an empty payload; from the manager, {@code {"type": "_nop_"}} means
 * nothing and {@code {"type": "_bye_", "reason": ...}} ends the conversation. The frames that carry
 * the messages are the JDK client's business (RFC 6455); this codec is strict about the messages: a
 * message it does not decode is a {@link ProtocolException} that quotes it.
 */
final class WebSocketMessageCodec {
    /** What the dispatcher says last. */
    static final String BYE = "{\"type\":\"_bye_\"}";

    private WebSocketMessageCodec() {
    }

    /** The text message for a command. */
    static String encode(Command command) {
        String payload = command.wireText();
        StringBuilder sb = new StringBuilder(payload.length() + 32);
        sb.append("{\"type\":\"").append(command.type().code()).append('"');
        if (!payload.isEmpty()) {
            sb.append(",\"content\":");
            JsonCodec.writeString(payload, sb);
        }
        return sb.append('}').toString();
    }

    /**
     * Decodes one message from the manager.
     *
     * @return the command, {@code null} for {@code _nop_}, or a {@link LinkEvent.End} for {@code _bye_}
     * @throws ProtocolException when the message is not JSON, not an object, has no string type, names an
     *                           unknown command or one the dispatcher sends, or has a content that is not a string
     */
    static Object decode(String text) throws ProtocolException {
        Object parsed = JsonCodec.parse(text, "WebSocket message");
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new ProtocolException("WebSocket message is not a JSON object: " + abbreviate(text));
        }
        Object type = m.get("type");
        if (!(type instanceof String t)) {
            throw new ProtocolException("WebSocket message has no string \"type\": " + abbreviate(text));
        }
        if (t.equals("_nop_")) {
            return null;
        }
        if (t.equals("_bye_")) {
            Object reason = m.get("reason");
            return new LinkEvent.End("the manager said goodbye" + (reason == null ? "" : " (" + reason + ")"));
        }
        CommandType ct = CommandType.ofCode(t);
        if (ct == null) {
            throw new ProtocolException("unknown command type \"" + t + "\" in WebSocket message " + abbreviate(text));
        }
        if (!ct.toDispatcher()) {
            throw new ProtocolException("command " + t + " is sent by the dispatcher, never to it: " + abbreviate(text));
        }
        Object content = m.get("content");
        if (content == null) {
            return Command.of(ct);
        }
        if (!(content instanceof String s)) {
            throw new ProtocolException("\"content\" of the " + t + " message is not a string: " + abbreviate(text));
        }
        return new Command(ct, s);
    }

    /** A message as an error quotes it: its first 200 characters. */
    static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /** The length of {@code s} in UTF-8 bytes. */
    static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
