package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program started in the background by a script ignores SIGINT, and a child inherits an ignored
 * signal, which a shell then cannot trap: without care, a trial of such a runner never sees the
 * interrupt of a stop and is killed at the end of its grace. This test runs {@link TrialProcess} in a
 * JVM started with SIGINT ignored.
 */
class TrialInterruptTest {

    /** In a JVM that ignores SIGINT: starts a trial that traps it, stops the trial, prints its exit status. */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        TrialProcess trial = TrialProcess.start("trap 'echo interrupted > signal; exit 130' INT; touch ready; sleep 60 & wait",
                dir, dir, Map.of());
        for (int i = 0; i < 3000 && !Files.exists(dir.resolve("ready")); i++) {
            Thread.sleep(10);
        }
        trial.stop(Duration.ofSeconds(10));
        System.out.println("status " + trial.onExit().get(60, TimeUnit.SECONDS));
    }

    @Test
    void aTrialOfARunnerThatIgnoresInterruptsStillGetsTheInterrupt(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder("/bin/sh", "-c", "trap '' INT; exec \"$0\" -cp \"$1\" " + TrialInterruptTest.class.getName() + " \"$2\"",
                java, System.getProperty("java.class.path"), dir.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the runner's JVM ended").isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as("the trial ended through its handler, not killed").contains("status 130");
        assertThat(Files.readString(dir.resolve("signal"))).contains("interrupted");
    }
}
