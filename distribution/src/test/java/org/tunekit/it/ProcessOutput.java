package org.tunekit.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A process's standard output, read line by line on a thread of its own while the process runs. */
final class ProcessOutput {
    private final StringBuilder seen = new StringBuilder();
    private final Thread reader;

    ProcessOutput(Process p) {
        reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    synchronized (seen) {
                        seen.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // the process was killed
            }
        }, "test-output-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** What it printed so far. */
    String text() {
        synchronized (seen) {
            return seen.toString();
        }
    }

    /** Waits (10 s at most) for the end of its output, then returns all of it. */
    String whole() throws InterruptedException {
        reader.join(10_000);
        return text();
    }
}
