package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a trial sees interrupts. A program started in the background by a script ignores SIGINT, and a
 * child inherits an ignored signal, which a shell then cannot trap: without care, a trial of such a
 * runner never sees the interrupt of a stop and is killed at the end of its grace. And a terminal's
 * Ctrl-C goes to the runner's whole process group: without care, a trial sees it and then the
 * interrupt of the stop that follows. These tests run {@link TrialProcess} in a JVM started with
 * SIGINT ignored.
 */
class TrialInterruptTest {

    private static final String TRAPPING_TRIAL = "trap 'echo interrupted >> signal; exit 130' INT; touch ready; sleep 60 & wait";

    /**
     * In a JVM that ignores SIGINT: starts a trial that traps it; with {@code group}, says "ready",
     * waits for a line on standard input (the test interrupts the JVM's process group meanwhile) and
     * says whether the trial outlived that; then stops the trial and prints its exit status.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        TrialProcess trial = TrialProcess.start(TRAPPING_TRIAL, dir, dir, Map.of());
        for (int i = 0; i < 3000 && !Files.exists(dir.resolve("ready")); i++) {
            Thread.sleep(10);
        }
        if (args.length > 1 && args[1].equals("group")) {
            System.out.println("ready");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            boolean ended;
            try {
                trial.onExit().get(2, TimeUnit.SECONDS);
                ended = true;
            } catch (TimeoutException e) {
                ended = false;
            }
            System.out.println("ended by the group's interrupt: " + ended);
        }
        trial.stop(Duration.ofSeconds(10));
        System.out.println("status " + trial.onExit().get(60, TimeUnit.SECONDS));
    }

    private static List<String> runner(Path dir, String... more) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String main = "trap '' INT; exec \"$0\" -cp \"$1\" " + TrialInterruptTest.class.getName() + " \"$2\"" + (more.length > 0 ? " " + more[0] : "");
        return List.of("/bin/sh", "-c", main, java, System.getProperty("java.class.path"), dir.toString());
    }

    @Test
    void aTrialOfARunnerThatIgnoresInterruptsStillGetsTheInterrupt(@TempDir Path dir) throws Exception {
        Process p = new ProcessBuilder(runner(dir)).redirectErrorStream(true).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the runner's JVM ended").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as("the trial ended through its handler, not killed").contains("status 130");
        assertThat(Files.readString(dir.resolve("signal"))).contains("interrupted");
    }

    @Test
    void anInterruptToTheRunnersProcessGroupDoesNotReachItsTrials(@TempDir Path dir) throws Exception {
        assumeTrue(new ProcessBuilder("setsid", "--wait", "true").start().waitFor() == 0, "setsid --wait (util-linux) is not installed");
        // the runner's JVM leads a process group of its own, so the group's interrupt reaches nothing else
        Process p = new ProcessBuilder(Stream.concat(Stream.of("setsid", "--wait"), runner(dir, "group").stream()).toList())
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             OutputStream in = p.getOutputStream()) {
            assertThat(out.readLine()).isEqualTo("ready");
            long group = p.pid();
            assertThat(new ProcessBuilder("kill", "-s", "INT", "--", "-" + group).start().waitFor()).as("kill of group " + group).isZero();
            in.write("\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            StringBuilder rest = new StringBuilder();
            for (String line; (line = out.readLine()) != null; ) {
                rest.append(line).append('\n');
            }
            assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the runner's JVM ended").isTrue();
            assertThat(p.exitValue()).as(rest.toString()).isZero();
            assertThat(rest.toString()).contains("ended by the group's interrupt: false").contains("status 130");
        }
        assertThat(Files.readAllLines(dir.resolve("signal"))).as("the trial saw the stop's interrupt, once").containsExactly("interrupted");
    }
}
