package org.tunekit.dispatcher.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.tunekit.sdk.spi.SpiVersion;

/**
 * Whether a plugin fits the SPI this dispatcher runs with: the SPI version its jar records (written
 * by the SDK's recorder while the plugin was compiled, or a manifest attribute), and, whatever it
 * records, whether its classes implement every abstract method the running SPI's interfaces have.
 * Checked when a plugin is loaded and when it creates its algorithm, so that a mismatch is a clear
 * error before the experiment starts instead of an {@link AbstractMethodError} in the middle of it.
 */
final class SpiCheck {

    /**
     * The SPI version a plugin records, and where.
     *
     * @param version the version, or null when the plugin records none
     * @param source  the jar (and entry) it was read from
     */
    record Declared(SpiVersion version, String source) {
        static final Declared NONE = new Declared(null, null);

        String describe() {
            return version == null ? "an SPI version it does not record" : "SPI " + version + " (" + source + ")";
        }
    }

    private SpiCheck() {}

    /**
     * Reads the SPI version recorded in {@code jars} (and {@code classesDir}, if not null): the
     * recorder's {@link SpiVersion#RECORD_RESOURCE}, else the manifest's
     * {@link SpiVersion#MANIFEST_ATTRIBUTE}. When several jars record one, the highest counts.
     *
     * @throws PluginConfigurationException when a recorded version cannot be read
     */
    static Declared declared(List<Path> jars, Path classesDir) {
        Declared best = Declared.NONE;
        if (classesDir != null) {
            Path record = classesDir.resolve(SpiVersion.RECORD_RESOURCE);
            if (Files.isRegularFile(record)) {
                try {
                    best = higher(best, fromProperties(Files.readString(record, StandardCharsets.UTF_8), record.toString()));
                } catch (IOException e) {
                    throw new PluginConfigurationException("cannot read " + record + ": " + e.getMessage(), e);
                }
            }
        }
        for (Path jar : jars) {
            best = higher(best, fromJar(jar));
        }
        return best;
    }

    private static Declared higher(Declared a, Declared b) {
        if (b.version() == null) {
            return a;
        }
        return a.version() == null || b.version().compareTo(a.version()) > 0 ? b : a;
    }

    private static Declared fromJar(Path jar) {
        try (JarFile jf = new JarFile(jar.toFile())) {
            JarEntry record = jf.getJarEntry(SpiVersion.RECORD_RESOURCE);
            if (record != null) {
                try (InputStream in = jf.getInputStream(record)) {
                    return fromProperties(new String(in.readAllBytes(), StandardCharsets.UTF_8), jar + "!/" + SpiVersion.RECORD_RESOURCE);
                }
            }
            Manifest mf = jf.getManifest();
            String v = mf == null ? null : mf.getMainAttributes().getValue(SpiVersion.MANIFEST_ATTRIBUTE);
            return v == null ? Declared.NONE : new Declared(parse(v, jar + " manifest attribute " + SpiVersion.MANIFEST_ATTRIBUTE), jar + " manifest");
        } catch (IOException e) {
            throw new PluginConfigurationException("cannot read plugin jar " + jar + ": " + e.getMessage(), e);
        }
    }

    private static Declared fromProperties(String text, String source) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        String v = p.getProperty(SpiVersion.RECORD_KEY);
        return v == null ? Declared.NONE : new Declared(parse(v, source), source);
    }

    private static SpiVersion parse(String v, String source) {
        try {
            return SpiVersion.parse(v);
        } catch (IllegalArgumentException e) {
            throw new PluginConfigurationException(source + ": " + e.getMessage());
        }
    }

    /**
     * Why a plugin that records {@code declared} cannot run on this SPI, or null when it can (or
     * records nothing).
     */
    static String versionProblem(Declared declared) {
        SpiVersion running = SpiVersion.current();
        if (declared.version() == null || running.runs(declared.version())) {
            return null;
        }
        SpiVersion needed = declared.version();
        String what = needed.compareTo(running) > 0
                ? "it needs a Tunekit whose SPI is " + needed.major() + "." + needed.minor() + " or a later " + needed.major() + ".x"
                : "its SPI major version " + needed.major() + " is older than this Tunekit's; rebuild it against tunekit-sdk with SPI " + running;
        return "was built against Tunekit SPI " + needed + " (" + declared.source() + "), but this Tunekit has SPI " + running
                + ": " + what;
    }

    /**
     * The abstract methods of {@code spi} (and its super-interfaces) that {@code implementation}
     * does not implement, as readable signatures; empty when it implements them all.
     */
    static List<String> missingMethods(Class<?> implementation, Class<?> spi) {
        List<String> missing = new ArrayList<>();
        for (Method m : spi.getMethods()) {
            if (!Modifier.isAbstract(m.getModifiers())) {
                continue;
            }
            try {
                Method found = implementation.getMethod(m.getName(), m.getParameterTypes());
                if (Modifier.isAbstract(found.getModifiers()) || !m.getReturnType().isAssignableFrom(found.getReturnType())) {
                    missing.add(signature(m));
                }
            } catch (NoSuchMethodException e) {
                missing.add(signature(m));
            }
        }
        missing.sort(null);
        return missing;
    }

    private static String signature(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName() + "("
                + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The message for a plugin class that lacks {@code missing} methods of the running SPI.
     */
    static String missingMessage(String what, Class<?> implementation, List<String> missing, Declared declared) {
        return what + ": " + implementation.getName() + " does not implement " + String.join(", ", missing)
                + ", which Tunekit SPI " + SpiVersion.current() + " requires; it was built against " + declared.describe()
                + ". Rebuild the plugin against tunekit-sdk with SPI " + SpiVersion.current() + ", or run it with the Tunekit it was built for";
    }

    /**
     * The message for a linkage error thrown by plugin code: it uses something this SPI does not have.
     */
    static String linkageMessage(String what, LinkageError e, Declared declared) {
        return what + " uses something this Tunekit's SPI " + SpiVersion.current() + " does not have (" + e
                + "); it was built against " + declared.describe() + ". Rebuild the plugin against tunekit-sdk with SPI "
                + SpiVersion.current() + ", or run it with the Tunekit it was built for";
    }
}
