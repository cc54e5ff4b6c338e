package org.tunekit.study;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP forwarder between the tests and the database, that can make the database go away ({@link #cut()}: every
 * connection through it closes, and new ones are closed as soon as they are made) and come back ({@link #resume()}),
 * as a server restart looks to its clients. It keeps its port all along, so that no other socket takes it meanwhile.
 */
final class TcpProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final List<Socket> sockets = new ArrayList<>();
    private boolean down;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread t = new Thread(this::accept, "tcp-proxy " + server.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Closes every connection through the proxy, and each new one as soon as it is made. */
    synchronized void cut() throws IOException {
        down = true;
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    /** Forwards new connections again. */
    synchronized void resume() {
        down = false;
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                synchronized (this) {
                    if (down) {
                        client.close();
                        continue;
                    }
                    Socket upstream = new Socket(targetHost, targetPort);
                    sockets.add(client);
                    sockets.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                }
            } catch (IOException e) {
                // closed, or the database refused: the client sees its connection end
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "tcp-proxy pump");
        t.setDaemon(true);
        t.start();
    }
}
