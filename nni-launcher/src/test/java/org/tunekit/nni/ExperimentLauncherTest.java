package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the manager is started: its command line, the interpreter it is given, the checks before. */
class ExperimentLauncherTest {
    @TempDir
    Path tmp;

    private Path executable(String name) throws IOException {
        Path p = tmp.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void theManagersCommandLineIsNnictls() throws IOException {
        NniInstallation nni = new NniInstallation(Path.of("/site/nni_node"), Path.of("/site/nni_node/node"), "3.0", List.of());
        var r = new ExperimentLauncher.Request("create", "ab12cd34", Map.of(), "local", Path.of("/home/u/nni-experiments"), "info",
                null, null, 8080, false, null, Path.of("/opt/tunekit/tunekit"), nni, Map.of(), Duration.ofSeconds(30));
        assertThat(ExperimentLauncher.command(r)).containsExactly("/site/nni_node/node", "--max-old-space-size=4096", "--trace-uncaught",
                "/site/nni_node/main.js", "--port", "8080", "--experiment-id", "ab12cd34", "--action", "create", "--mode", "local",
                "--experiments-directory", "/home/u/nni-experiments", "--log-level", "info", "--foreground", "false",
                "--python-interpreter", "/opt/tunekit/tunekit");
        var resumed = new ExperimentLauncher.Request("resume", "ab12cd34", Map.of(), "hybrid", Path.of("/e"), "debug", null, null, 9000,
                true, "nni/x", Path.of("/t"), nni, Map.of(), Duration.ofSeconds(30));
        assertThat(ExperimentLauncher.command(resumed)).containsSubsequence("--action", "resume", "--mode", "hybrid", "--log-level",
                "debug", "--foreground", "true", "--url-prefix", "nni/x", "--python-interpreter", "/t");
    }

    @Test
    void anInterpreterPathWithASpaceIsRefusedWithAWayOut() throws IOException {
        Path spaced = executable("my tools/tunekit");
        assertThatThrownBy(() -> ExperimentLauncher.interpreter(spaced)).isInstanceOf(LaunchException.class)
                .hasMessageContaining("has a space").hasMessageContaining("without quoting it")
                .hasMessageContaining("--interpreter ~/.local/bin/tunekit-nni");
        Path dollar = executable("a$b/tunekit");
        assertThatThrownBy(() -> ExperimentLauncher.interpreter(dollar)).hasMessageContaining("a character that /bin/sh reads specially");
        assertThatThrownBy(() -> ExperimentLauncher.interpreter(tmp.resolve("absent"))).hasMessageContaining("is not an executable file");
        Path plain = executable("bin/tunekit");
        assertThat(ExperimentLauncher.interpreter(plain)).isEqualTo(plain.toAbsolutePath());
    }

    @Test
    void aPortInUseIsRefused() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            assertThatThrownBy(() -> ExperimentLauncher.ensurePortIdle(s.getLocalPort(), null)).isInstanceOf(LaunchException.class)
                    .hasMessageContaining("port " + s.getLocalPort() + " is in use").hasMessageContaining("--port N");
        }
    }

    @Test
    void idsAreNnisKind() throws IOException {
        ExperimentRegistry registry = new ExperimentRegistry(tmp);
        for (int i = 0; i < 20; i++) {
            String id = ExperimentLauncher.newId(tmp, registry);
            assertThat(id).matches("[a-z0-9]{8}");
            assertThat(id.chars().distinct().count()).isEqualTo(8);
        }
        ExperimentLauncher.checkId("ab-12_CD");
        assertThatThrownBy(() -> ExperimentLauncher.checkId("../etc")).isInstanceOf(LaunchException.class);
    }

    @Test
    void theTailOfALogIsIntroducedAndAnAbsentOneIsLeftOut() throws IOException {
        Path log = tmp.resolve("x.log");
        Files.writeString(log, "a\nb\nc\n");
        assertThat(ExperimentLauncher.tail("its log", log, 2)).isEqualTo("\n--- its log (" + log + "), last lines:\nb\nc");
        assertThat(ExperimentLauncher.tail("its log", tmp.resolve("none"), 2)).isEmpty();
    }
}
