package org.tunekit.dispatcher.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Finds the mistake of a plugin jar that holds a provider class but does not list it in
 * {@code META-INF/services}, so that {@link java.util.ServiceLoader} never sees it. Only run for a
 * kind of which the plugin lists no provider; only classes whose bytes name an SPI type are loaded.
 */
final class UnlistedProviders {
    private static final byte[] SPI_PACKAGE = "org/tunekit/sdk/spi/".getBytes(StandardCharsets.UTF_8);

    private UnlistedProviders() {}

    /** The concrete classes in {@code jars} implementing {@code kind}'s provider interface. */
    static List<String> find(AlgorithmKind kind, List<Path> jars, ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (Path jar : jars) {
            try (JarFile jf = new JarFile(jar.toFile())) {
                for (Enumeration<JarEntry> en = jf.entries(); en.hasMoreElements(); ) {
                    JarEntry e = en.nextElement();
                    String n = e.getName();
                    if (!n.endsWith(".class") || n.endsWith("module-info.class") || n.startsWith("META-INF/")) {
                        continue;
                    }
                    byte[] bytes;
                    try (InputStream in = jf.getInputStream(e)) {
                        bytes = in.readAllBytes();
                    }
                    if (!contains(bytes, SPI_PACKAGE)) {
                        continue;
                    }
                    String className = n.substring(0, n.length() - ".class".length()).replace('/', '.');
                    try {
                        Class<?> c = Class.forName(className, false, loader);
                        if (kind.providerType().isAssignableFrom(c) && !c.isInterface() && !Modifier.isAbstract(c.getModifiers())) {
                            found.add(className);
                        }
                    } catch (ClassNotFoundException | LinkageError ignored) {
                        // not loadable: not something ServiceLoader could have created either
                    }
                }
            } catch (IOException e) {
                // an unreadable jar is reported when its classes are loaded
            }
        }
        return found;
    }

    /** What to tell the author about {@code className}. */
    static String message(AlgorithmKind kind, String className, String origin) {
        String file = "META-INF/services/" + kind.providerType().getName();
        return origin + " has " + className + ", which implements " + kind.providerType().getSimpleName()
                + ", but no " + file + ", so the " + kind.label() + " is not found: add that file to the jar"
                + " (src/main/resources/" + file + " in a Maven project) with the line " + className;
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
