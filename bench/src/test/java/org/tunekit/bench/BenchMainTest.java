package org.tunekit.bench;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The benchmarks' own command: every benchmark is a sub-command, and each help renders cleanly (picocli reads descriptions as format strings). */
class BenchMainTest {
    private static final List<String> COMMANDS = List.of("bench", "bench-mo", "bench-curves", "bench-runner", "bench-soak");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return BenchMain.execute(args, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
    }

    @Test
    void everyBenchmarkIsASubCommandWhoseHelpRendersWithoutWarnings() {
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        PrintStream previous = System.err;
        System.setErr(new PrintStream(warnings, true, UTF_8));
        try {
            CommandLine root = new CommandLine(new BenchMain());
            for (String command : COMMANDS) {
                assertThat(root.getSubcommands()).containsKey(command);
                assertThat(root.getSubcommands().get(command).getUsageMessage()).as(command).startsWith("Usage: tunekit-bench " + command)
                        .doesNotContain("%n");
            }
        } finally {
            System.setErr(previous);
        }
        assertThat(warnings.toString(UTF_8)).isEmpty();
    }

    @Test
    void theRootCommandListsThemAll() {
        assertThat(run("--help")).isZero();
        String help = out.toString(UTF_8);
        assertThat(help).startsWith("Usage: tunekit-bench");
        COMMANDS.forEach(c -> assertThat(help).contains("  " + c + " "));
    }

    @Test
    void theDemoIsNotABenchmark() {
        assertThat(run("demo")).isEqualTo(2);
        assertThat(err.toString(UTF_8)).contains("Unmatched argument");
    }
}
