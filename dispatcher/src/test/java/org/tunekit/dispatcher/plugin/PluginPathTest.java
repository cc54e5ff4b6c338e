package org.tunekit.dispatcher.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginPathTest {

    @Test
    void theGivenDirectoriesComeFirstThenThoseOfThePathSkippingEmptyEntries() {
        assertThat(PluginPath.directories(List.of(Path.of("given")), Map.of("TUNEKIT_PLUGIN_PATH", "/a::/b: ")))
                .containsExactly(Path.of("given"), Path.of("/a"), Path.of("/b"));
    }

    @Test
    void withoutThePathOnlyTheGivenDirectories() {
        assertThat(PluginPath.directories(List.of(), Map.of())).isEmpty();
        assertThat(PluginPath.directories(List.of(Path.of("x")), Map.of("OTHER", "/y"))).containsExactly(Path.of("x"));
    }
}
