package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code tunekit katib serve}'s options: bad ones end the command with status 2 and a message. */
class KatibCommandTest {

    private static int run(ByteArrayOutputStream err, String... args) {
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new CommandLine(new KatibCommand()).execute(args);
        } finally {
            System.setErr(old);
        }
    }

    @Test
    void neitherServiceIsRefused() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(run(err, "serve", "--port", "-1", "--early-stopping-port", "-1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("neither service is to be served");
    }

    @Test
    void aRequestLimitOutOfRangeIsRefused() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(run(err, "serve", "--max-request-mb", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--max-request-mb must be in [1, 2047], got 0");
    }

    @Test
    void helpListsTheOptions() {
        CommandLine cl = new CommandLine(new KatibCommand());
        String usage = cl.getSubcommands().get("serve").getUsageMessage();
        assertThat(usage).contains("--port", "--early-stopping-port", "--host", "--plugins", "--max-request-mb", "--max-assignments", "--no-warm-up");
    }
}
