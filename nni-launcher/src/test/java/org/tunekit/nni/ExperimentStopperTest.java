package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which experiments {@code tunekit nni stop} picks, by nnictl stop's rules. */
class ExperimentStopperTest {
    @TempDir
    Path tmp;
    ExperimentRegistry registry;
    ExperimentStopper stopper;

    @BeforeEach
    void experiments() throws Exception {
        registry = new ExperimentRegistry(tmp);
        long alive = ProcessHandle.current().pid();
        registry.put(ExperimentRegistry.entry("abc11111", 8080, 1L, "local", null, alive, tmp, null));
        registry.put(ExperimentRegistry.entry("abd22222", 8081, 1L, "local", null, alive, tmp, null));
        registry.put(ExperimentRegistry.entry("xyz33333", 8082, 1L, "local", null, alive, tmp, null));
        registry.put(ExperimentRegistry.entry("gone4444", 8083, 1L, "local", null, Long.MAX_VALUE, tmp, null));
        stopper = new ExperimentStopper(new PrintWriter(new StringWriter()), registry);
    }

    @Test
    void idsPrefixesStarsPortsAndAll() throws Exception {
        assertThat(stopper.select("xyz33333", null, false)).containsExactly("xyz33333");
        assertThat(stopper.select("xy", null, false)).containsExactly("xyz33333");
        assertThat(stopper.select("ab*", null, false)).containsExactly("abc11111", "abd22222");
        assertThat(stopper.select(null, 8081, false)).containsExactly("abd22222");
        assertThat(stopper.select(null, null, true)).containsExactly("abc11111", "abd22222", "xyz33333");
        assertThat(registry.read().get("gone4444")).as("a dead manager's experiment is stopped").containsEntry("status", "STOPPED");
    }

    @Test
    void ambiguousOrUnmatchedChoicesAreRefused() {
        assertThatThrownBy(() -> stopper.select(null, null, false)).isInstanceOf(LaunchException.class)
                .hasMessageContaining("several experiments are running");
        assertThatThrownBy(() -> stopper.select("ab", null, false)).hasMessageContaining("ab is ambiguous: abc11111 abd22222");
        assertThatThrownBy(() -> stopper.select("gone4444", null, false)).hasMessageContaining("(it is stopped already)");
        assertThatThrownBy(() -> stopper.select("abc11111", 8082, false)).hasMessageContaining("is not the one on port 8082");
    }
}
