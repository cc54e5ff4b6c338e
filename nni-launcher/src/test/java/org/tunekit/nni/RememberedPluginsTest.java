package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A resumed experiment's tuner gets the plugin folders its experiment was created with, unless others are given. */
class RememberedPluginsTest {
    @TempDir
    Path tmp;

    @Test
    void pluginFoldersGivenAtCreateAreUsedAgainWhenResumeGivesNone() throws Exception {
        Path root = tmp.resolve("exps").resolve("abcd1234");
        Path pluginsA = Files.createDirectories(tmp.resolve("plugins-a"));
        Path pluginsB = Files.createDirectories(tmp.resolve("plugins b"));

        ManagerOptions create = new ManagerOptions();
        create.plugins = List.of(pluginsA, pluginsB);
        Map<String, String> atCreate = create.environment(root, new PrintWriter(new StringWriter()));
        String expected = pluginsA.toAbsolutePath() + File.pathSeparator + pluginsB.toAbsolutePath();
        assertThat(atCreate.get("TUNEKIT_PLUGIN_PATH")).startsWith(expected);

        StringWriter said = new StringWriter();
        Map<String, String> atResume = new ManagerOptions().environment(root, new PrintWriter(said, true));
        assertThat(atResume.get("TUNEKIT_PLUGIN_PATH")).isEqualTo(atCreate.get("TUNEKIT_PLUGIN_PATH"));
        assertThat(said.toString()).contains("Plugins from the experiment's last launch", pluginsA.toString(), pluginsB.toString());
    }

    @Test
    void foldersGivenOnResumeReplaceTheRememberedOnesAndAreRememberedInTurn() throws Exception {
        Path root = tmp.resolve("exp");
        Path old = Files.createDirectories(tmp.resolve("old"));
        Path now = Files.createDirectories(tmp.resolve("new"));
        RememberedPlugins.write(root, List.of(old));

        ManagerOptions resume = new ManagerOptions();
        resume.plugins = List.of(now);
        resume.environment(root, new PrintWriter(new StringWriter()));

        assertThat(RememberedPlugins.read(root)).containsExactly(now.toAbsolutePath());
        assertThat(Files.list(root).map(p -> p.getFileName().toString())).containsExactly(RememberedPlugins.FILE_NAME);
    }

    @Test
    void aRememberedFolderThatIsGoneIsWarnedAbout() throws Exception {
        Path root = tmp.resolve("exp");
        Path gone = tmp.resolve("deleted-plugins");
        RememberedPlugins.write(root, List.of(gone));

        StringWriter said = new StringWriter();
        new ManagerOptions().environment(root, new PrintWriter(said, true));

        assertThat(said.toString()).contains("WARNING: plugin folder " + gone.toAbsolutePath() + " no longer exists");
    }

    @Test
    void anExperimentWithNothingRememberedGetsNoPluginPathFromIt() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("made-by-nnictl"));
        StringWriter said = new StringWriter();
        Map<String, String> env = new ManagerOptions().environment(root, new PrintWriter(said, true));
        assertThat(env.get("TUNEKIT_PLUGIN_PATH")).isEqualTo(System.getenv("TUNEKIT_PLUGIN_PATH"));
        assertThat(said.toString()).isEmpty();
    }
}
