package org.tunekit.dashboard;

import java.io.IOException;
import java.nio.file.Path;
import org.tunekit.runner.LiveView;

/** The dashboard as {@code tunekit run}'s live view: the running experiment first, the others of its folder beside it. */
public final class DashboardView implements LiveView {
    @Override
    public Serving serve(Path folder, String host, int port) throws IOException {
        Dashboard d = Dashboard.start(new Dashboard.Settings(host, port, folder.getParent(), folder));
        return new Serving() {
            @Override
            public String address() {
                return d.address();
            }

            @Override
            public void close() {
                d.close();
            }
        };
    }
}
