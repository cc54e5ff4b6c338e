package org.tunekit.dispatcher.plugin;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Builds small plugin jars for tests: compiles sources against the SDK (and against stand-in SDK
 * types given as sources, to imitate a plugin built against another SPI; those are left out of the
 * jar), and adds resources.
 */
final class PluginJars {
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> resources = new LinkedHashMap<>();
    private boolean processors = true;

    /** Adds a Java source for {@code className}. */
    PluginJars source(String className, String code) {
        sources.put(className, code);
        return this;
    }

    /** Adds a text resource. */
    PluginJars resource(String path, String text) {
        resources.put(path, text);
        return this;
    }

    /** Lists {@code providerClass} in the services file of {@code spi}. */
    PluginJars service(Class<?> spi, String providerClass) {
        return resource("META-INF/services/" + spi.getName(), providerClass + "\n");
    }

    /** Compiles without annotation processing (so the SDK's recorder does not run). */
    PluginJars withoutProcessors() {
        processors = false;
        return this;
    }

    /** Compiles and writes the jar to {@code jar}. */
    Path build(Path jar) {
        try {
            Path builds = jar.toAbsolutePath().getParent().resolveSibling("builds");
            Files.createDirectories(builds);
            Path work = Files.createTempDirectory(builds, "build");
            Path src = work.resolve("src");
            Path out = work.resolve("classes");
            Files.createDirectories(out);
            List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-classpath", sdkLocation().toString(), "--release", "17"));
            if (!processors) {
                args.add("-proc:none");
            }
            for (Map.Entry<String, String> e : sources.entrySet()) {
                Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
                Files.createDirectories(f.getParent());
                Files.writeString(f, e.getValue());
                args.add(f.toString());
            }
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            int rc = javac.run(null, null, null, args.toArray(String[]::new));
            if (rc != 0) {
                throw new IllegalStateException("test plugin did not compile");
            }
            for (Map.Entry<String, String> e : resources.entrySet()) {
                Path f = out.resolve(e.getKey());
                Files.createDirectories(f.getParent());
                Files.writeString(f, e.getValue());
            }
            Files.createDirectories(jar.getParent());
            try (OutputStream os = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(os);
                 Stream<Path> files = Files.walk(out)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    String name = out.relativize(f).toString().replace('\\', '/');
                    if (name.startsWith("org/tunekit/sdk/")) {
                        continue; // stand-ins for another SPI's types are not part of the plugin
                    }
                    jos.putNextEntry(new JarEntry(name));
                    jos.write(Files.readAllBytes(f));
                    jos.closeEntry();
                }
            }
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path sdkLocation() {
        try {
            return Path.of(TunerProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A tuner and its provider named {@code name}, in package {@code pkg}. */
    static PluginJars tuner(String pkg, String name, String createBody) {
        return new PluginJars()
                .source(pkg + ".P", "package " + pkg + ";\n"
                        + "import org.tunekit.sdk.*; import org.tunekit.sdk.spi.*;\n"
                        + "public final class P implements TunerProvider {\n"
                        + "  public String name() { return \"" + name + "\"; }\n"
                        + "  public Tuner create(ClassArguments args) { " + createBody + " }\n"
                        + "}\n")
                .source(pkg + ".T", "package " + pkg + ";\n"
                        + "import org.tunekit.sdk.*; import org.tunekit.sdk.space.SearchSpace;\n"
                        + "public final class T implements Tuner {\n"
                        + "  public void updateSearchSpace(SearchSpace s) {}\n"
                        + "  public Parameters generateParameters(long id) { return Parameters.of(java.util.Map.of()); }\n"
                        + "  public void receiveTrialResult(TrialResult r) {}\n"
                        + "}\n");
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
