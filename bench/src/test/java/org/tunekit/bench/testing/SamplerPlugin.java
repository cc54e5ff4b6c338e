package org.tunekit.bench.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Packs {@link BenchSamplerProvider} into a plugin jar, so that a benchmark finds it the way it finds
 * any third-party tuner (and no other test's catalog sees it).
 */
public final class SamplerPlugin {
    private SamplerPlugin() {}

    /** Writes {@code sampler.jar}, a plugin jar holding {@link BenchSamplerProvider}, into {@code pluginDir}. */
    public static void pack(Path pluginDir) throws Exception {
        Path classes = Path.of(BenchSamplerProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pkg = BenchSamplerProvider.class.getPackageName().replace('.', '/');
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(pluginDir.resolve("sampler.jar")));
                var files = Files.list(classes.resolve(pkg))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("BenchSamplerProvider")).toList()) {
                jar.putNextEntry(new JarEntry(pkg + "/" + f.getFileName()));
                jar.write(Files.readAllBytes(f));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("META-INF/services/" + TunerProvider.class.getName()));
            jar.write((BenchSamplerProvider.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
    }
}
