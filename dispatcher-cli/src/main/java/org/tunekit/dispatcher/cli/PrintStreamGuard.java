package org.tunekit.dispatcher.cli;

/** Keeps stray prints (a plugin's {@code System.out.println}) off a stdout that carries the wire. */
final class PrintStreamGuard {
    private PrintStreamGuard() {}

    /** From now on {@code System.out} writes to stderr; the channel writes to file descriptor 1 directly. */
    static void protectStdout() {
        System.out.flush();
        System.setOut(System.err);
    }
}
