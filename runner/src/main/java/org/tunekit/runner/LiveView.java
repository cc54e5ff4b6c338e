package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Shows an experiment while {@code tunekit run} runs it: the dashboard, found on the class path with
 * {@link java.util.ServiceLoader} (none found: the run goes on without one). It reads the experiment's
 * store as any other reader does and steers it by requests in the store ({@link ExperimentRequests}),
 * so it needs nothing else from the runner.
 */
public interface LiveView {
    /**
     * Starts showing the experiment in {@code folder}.
     *
     * @param host the address to listen on (a loopback address serves this machine only)
     * @param port the port to try first; the next free one is taken when it is busy
     * @return what is served, to close when the run ends
     * @throws IOException when no port could be had
     */
    Serving serve(Path folder, String host, int port) throws IOException;

    /** A view being served. */
    interface Serving extends AutoCloseable {
        /** The address to open in a browser (with its token when it serves other machines). */
        String address();

        @Override
        void close();
    }
}
