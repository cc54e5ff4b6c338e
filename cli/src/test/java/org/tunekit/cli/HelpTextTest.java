package org.tunekit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command's help renders cleanly: picocli reads descriptions as format strings. */
class HelpTextTest {

    @Test
    void everyCommandsHelpRendersWithoutWarnings() {
        for (String command : List.of("dispatch", "list", "demo", "nni", "nni create", "nni resume", "nni view", "nni stop")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream previousErr = System.err;
            ByteArrayOutputStream stray = new ByteArrayOutputStream();
            System.setErr(new PrintStream(stray, true, StandardCharsets.UTF_8));
            int status;
            try {
                status = TunekitMain.execute((command + " --help").split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
            } finally {
                System.setErr(previousErr);
            }
            String all = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8) + stray.toString(StandardCharsets.UTF_8);
            assertThat(status).as(command).isZero();
            assertThat(all).as(command).startsWith("Usage: tunekit " + command).doesNotContain("WARN").doesNotContain("%n");
        }
    }
}
