package org.tunekit.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = new CommandLine(new DemoCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void aShortDemoRunsEveryTrialAndNamesTheBest() {
        assertThat(run("--objective", "branin", "--tuner", "Random", "--assessor", "none", "--trials", "6", "--concurrency", "2",
                "--epochs", "3", "--seed", "1")).as(err.toString()).isZero();
        assertThat(out.toString()).startsWith("Experiment: minimise 'branin' with Random; 6 trials, 2 at a time, 3 epochs each, seed 1")
                .contains("Best value ").contains("after 6 trials").contains("Best parameters:").contains("  x1 ").contains("  x2 ");
    }

    @Test
    void anUnknownObjectiveIsRefusedWithTheNamesThereAre() {
        assertThat(run("--objective", "rosenbrock8")).isEqualTo(2);
        assertThat(err.toString()).contains("tunekit demo: unknown objective 'rosenbrock8'; available: branin, hartmann6, ackley5, mixed, nested");
    }
}
