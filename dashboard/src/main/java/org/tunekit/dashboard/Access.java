package org.tunekit.dashboard;

import com.sun.net.httpserver.HttpExchange;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Who may read the dashboard and who may steer the experiment.
 *
 * <ul>
 *   <li>Served on a loopback address, anyone on this machine may read; the {@code Host} a request names
 *       must be a loopback name with the port served, so a web page elsewhere cannot reach it by a name
 *       it controls (DNS rebinding).</li>
 *   <li>Served on any other address, every request needs the token: in the address printed at start
 *       ({@code ?token=}, which the server trades for a same-site cookie and drops from the address), in that
 *       cookie, or in the {@value #HEADER} header.</li>
 *   <li>A control (any request that is not GET or HEAD) needs the token in the {@value #HEADER} header
 *       wherever it is served, and an {@code Origin}, when the browser sends one, that is the dashboard's
 *       own: a page of another site can neither set the header nor read the page that holds the token.</li>
 * </ul>
 */
final class Access {
    static final String HEADER = "X-Tunekit-Token";
    static final String COOKIE = "tunekit_token";

    private final String token;
    private final boolean loopback;
    private final int port;

    Access(String token, boolean loopback, int port) {
        this.token = token;
        this.loopback = loopback;
        this.port = port;
    }

    /** A token no one can guess: 128 random bits as hex. */
    static String newToken() {
        byte[] b = new byte[16];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    String token() {
        return token;
    }

    boolean loopback() {
        return loopback;
    }

    /** Why the request may not go on, or {@code null} when it may. */
    String refusal(HttpExchange x) {
        if (loopback && !loopbackHost(x.getRequestHeaders().getFirst("Host"))) {
            return "this dashboard answers to its loopback address only (127.0.0.1:" + port + ", localhost:" + port + ")";
        }
        boolean control = !List.of("GET", "HEAD").contains(x.getRequestMethod());
        if (control) {
            if (!matches(x.getRequestHeaders().getFirst(HEADER))) {
                return "a control needs the dashboard's token in the " + HEADER + " header";
            }
            String origin = x.getRequestHeaders().getFirst("Origin");
            if (origin != null && !sameOrigin(origin, x.getRequestHeaders().getFirst("Host"))) {
                return "a control from another site (" + origin + ") is refused";
            }
            return null;
        }
        if (loopback) {
            return null;
        }
        if (matches(x.getRequestHeaders().getFirst(HEADER)) || matches(cookie(x)) || matches(queryToken(x.getRequestURI()))) {
            return null;
        }
        return "this dashboard needs its token: open the address tunekit printed (it ends in ?token=...)";
    }

    /** Whether the request carries the token in its address, to be traded for a cookie. */
    boolean tokenInAddress(HttpExchange x) {
        return matches(queryToken(x.getRequestURI()));
    }

    String cookieHeader() {
        return COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict";
    }

    private boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        for (String name : List.of("127.0.0.1", "localhost", "[::1]")) {
            if (h.equals(name + ":" + port) || (port == 80 && h.equals(name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameOrigin(String origin, String host) {
        try {
            URI o = new URI(origin);
            String authority = o.getRawAuthority();
            return host != null && authority != null && "http".equalsIgnoreCase(o.getScheme()) && authority.equalsIgnoreCase(host);
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private boolean matches(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    private static String cookie(HttpExchange x) {
        for (String header : x.getRequestHeaders().getOrDefault("Cookie", List.of())) {
            for (String part : header.split(";")) {
                String p = part.strip();
                if (p.startsWith(COOKIE + "=")) {
                    return p.substring(COOKIE.length() + 1);
                }
            }
        }
        return null;
    }

    private static String queryToken(URI uri) {
        String q = uri.getRawQuery();
        if (q == null) {
            return null;
        }
        for (String part : q.split("&")) {
            if (part.startsWith("token=")) {
                return part.substring(6);
            }
        }
        return null;
    }
}
