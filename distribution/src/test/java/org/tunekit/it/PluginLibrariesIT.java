package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Plugins with their own libraries: two plugin folders, each holding the same plugin jar and its
 * own Gson (2.8.9 and 2.10.1), while the dispatcher has another Gson. Each plugin must load and use
 * its own, and see neither the other's nor Tunekit's libraries.
 */
class PluginLibrariesIT {
    static final Path LIBRARY_PLUGINS = TunekitProcess.HOME.resolve("protocol-spec/fixture-library-plugin/target/plugins");

    @Test
    void eachPluginFolderLoadsItsOwnLibraryIsolatedFromTheOtherAndFromTunekit() throws Exception {
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(List.of(LIBRARY_PLUGINS));
        assertThat(catalog.problems()).isEmpty();
        List<AlgorithmCatalog.Entry> probes = catalog.entries().stream().filter(e -> e.provider().name().startsWith("LibraryProbe@")).toList();
        assertThat(probes).extracting(e -> e.provider().name()).containsExactly("LibraryProbe@gson-2.10.1", "LibraryProbe@gson-2.8.9");
        for (AlgorithmCatalog.Entry e : probes) {
            assertThat(e.provider().description()).endsWith("sees picocli: false, sees the dispatcher: false");
        }

        Tuner old = create(catalog, "LibraryProbe@gson-2.8.9");
        Tuner newer = create(catalog, "libraryprobe@GSON-2.10.1");
        Class<?> oldGson = old.getClass().getClassLoader().loadClass("com.google.gson.Gson");
        Class<?> newerGson = newer.getClass().getClassLoader().loadClass("com.google.gson.Gson");
        assertThat(oldGson).isNotSameAs(newerGson).isNotSameAs(Gson.class);
        assertThat(newerGson).isNotSameAs(Gson.class);
        assertThat(location(oldGson)).endsWith("library-probe-old/gson-2.8.9.jar");
        assertThat(location(newerGson)).endsWith("library-probe-newer/gson-2.10.1.jar");
        assertThat(location(Gson.class)).doesNotContain("library-probe");

        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).build();
        for (Tuner t : List.of(old, newer)) {
            t.updateSearchSpace(space);
            Parameters p = t.generateParameters(3);
            assertThat(space.violation(p)).isEmpty();
        }
    }

    @Test
    void tunekitListShowsBothPluginsAndNoProblem() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(TunekitProcess.HOME.resolve("tunekit").toString(), "list", "--plugins", LIBRARY_PLUGINS.toString())
                .directory(TunekitProcess.HOME.toFile()).redirectErrorStream(true);
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("LibraryProbe@gson-2.8.9", "LibraryProbe@gson-2.10.1", "library-probe-old", "library-probe-newer")
                .doesNotContain("problem:");
    }

    private static Tuner create(AlgorithmCatalog catalog, String name) {
        return catalog.create(new AlgorithmSpec(AlgorithmKind.TUNER, name, null, null, ClassArguments.of(Map.of("seed", 7))), Tuner.class);
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString().replace('\\', '/');
    }
}
