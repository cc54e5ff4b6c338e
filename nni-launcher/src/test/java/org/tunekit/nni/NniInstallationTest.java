package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding NNI's manager and telling whether Tunekit can drive it. */
class NniInstallationTest {
    @TempDir
    Path tmp;

    /** An nni_node folder as NNI's pip package lays it out (main.js, package.json, its own node). */
    private Path nniNode(String version, boolean takesInterpreter, boolean ownNode) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("site-packages/nni_node"));
        Files.writeString(dir.resolve("main.js"), "");
        Files.createDirectories(dir.resolve("common/globals"));
        Files.writeString(dir.resolve("common/globals/arguments.js"), takesInterpreter ? "pythonInterpreter: {demandOption: true}" : "port: {}");
        if (version != null) {
            Files.writeString(dir.resolve("package.json"), "{\"name\": \"nni\", \"version\": \"" + version + "\"}");
        }
        if (ownNode) {
            executable(dir.resolve("node"));
        }
        return dir;
    }

    private static void executable(Path p) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aPipInstallOfNni3IsUsedWithItsOwnNode() throws IOException {
        Path dir = nniNode("3.0", true, true);
        NniInstallation nni = NniInstallation.find(dir, "python3", Map.of("PATH", ""));
        assertThat(nni.nodeDir()).isEqualTo(dir);
        assertThat(nni.node()).isEqualTo(dir.resolve("node"));
        assertThat(nni.version()).isEqualTo("3.0");
        assertThat(nni.notes()).isEmpty();
    }

    @Test
    void withoutItsOwnNodeTheOneOnThePathRuns() throws IOException {
        Path dir = nniNode("3.0", true, false);
        Path bin = tmp.resolve("bin");
        executable(bin.resolve("node"));
        assertThat(NniInstallation.find(null, "python3", Map.of("PATH", bin.toString(), "TUNEKIT_NNI_NODE", dir.toString())).node())
                .isEqualTo(bin.resolve("node"));
        assertThatThrownBy(() -> NniInstallation.find(dir, "python3", Map.of("PATH", tmp.resolve("empty").toString())))
                .isInstanceOf(LaunchException.class).hasMessageContaining("Node.js not found");
    }

    @Test
    void aSourceBuildReadsItsVersionFromTheFolderAboveAndIsNoted() throws IOException {
        Path nniManager = Files.createDirectories(tmp.resolve("ts/nni_manager"));
        Files.writeString(nniManager.resolve("package.json"), "{\"name\": \"nni\", \"version\": \"999.0.0-developing\"}");
        Path dist = Files.createDirectories(nniManager.resolve("dist/common/globals")).getParent().getParent();
        Files.writeString(dist.resolve("main.js"), "");
        Files.writeString(dist.resolve("common/globals/arguments.js"), "pythonInterpreter");
        executable(dist.resolve("node"));
        NniInstallation nni = NniInstallation.find(dist, "python3", Map.of());
        assertThat(nni.version()).isEqualTo("999.0.0-developing");
        assertThat(nni.notes()).singleElement().asString().contains("development build");
    }

    @Test
    void aManagerThatCannotBeGivenAnInterpreterIsRefusedAndNni2IsNoted() throws IOException {
        Path old = nniNode("2.7", false, true);
        assertThatThrownBy(() -> NniInstallation.find(old, "python3", Map.of())).isInstanceOf(LaunchException.class)
                .hasMessageContaining("(NNI 2.7) cannot be told which program to start as its tuner")
                .hasMessageContaining("pip install 'nni>=3.0'");
        Files.writeString(old.resolve("common/globals/arguments.js"), "pythonInterpreter");
        Files.writeString(old.resolve("package.json"), "{\"name\": \"nni\", \"version\": \"2.10\"}");
        assertThat(NniInstallation.find(old, "python3", Map.of()).notes()).singleElement().asString()
                .startsWith("NNI 2.10: its manager takes the same arguments as NNI 3's");
    }

    @Test
    void aFolderWithoutMainJsIsNotNnisManager() {
        assertThatThrownBy(() -> NniInstallation.find(tmp, "python3", Map.of())).isInstanceOf(LaunchException.class)
                .hasMessageContaining("has no main.js, so it is not NNI's nni_node folder");
    }

    @Test
    void withoutNniThePythonAskedSaysSoAndWhatToDo() throws IOException {
        Path python = tmp.resolve("python");
        Files.writeString(python, "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'nni_node'\" >&2\nexit 1\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThatThrownBy(() -> NniInstallation.find(null, python.toString(), Map.of("PATH", "/usr/bin:/bin")))
                .isInstanceOf(LaunchException.class).hasMessageContaining(python + " has no NNI (no module nni_node)")
                .hasMessageContaining("pip install 'nni>=3.0'").hasMessageContaining("--nni-node DIR");
        assertThatThrownBy(() -> NniInstallation.find(null, tmp.resolve("no-python").toString(), Map.of()))
                .isInstanceOf(LaunchException.class).hasMessageContaining("cannot be run");
    }

    @Test
    void thePythonAskedSaysWhereNniNodeIs() throws IOException {
        Path dir = nniNode("3.0", true, true);
        Path python = tmp.resolve("python");
        Files.writeString(python, "#!/bin/sh\necho '" + dir + "'\n");
        Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(NniInstallation.find(null, python.toString(), Map.of("PATH", "/usr/bin:/bin")).nodeDir()).isEqualTo(dir);
    }
}
