package org.tunekit.sdk.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public surface of the SDK, one line per public or protected type, constructor, method and
 * field of the {@code org.tunekit.sdk} packages (all but {@code org.tunekit.sdk.internal}), read by
 * reflection from the compiled classes. Lines start with the type's name, so sorting groups them.
 */
final class SpiSurface {
    static final String EXCLUDED_PACKAGE = "org.tunekit.sdk.internal";

    private SpiSurface() {}

    /** The surface of the SDK classes this test runs with, sorted. */
    static List<String> current() {
        Path classes;
        try {
            classes = Path.of(SpiVersion.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        TreeSet<String> lines = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes.resolve("org/tunekit/sdk"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String rel = classes.relativize(f).toString().replace('\\', '/');
                String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
                if (name.endsWith("package-info") || name.startsWith(EXCLUDED_PACKAGE + ".")) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, SpiVersion.class.getClassLoader());
                if (visible(c)) {
                    describe(c, lines);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return new ArrayList<>(lines);
    }

    private static boolean visible(Class<?> c) {
        if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) {
            return false;
        }
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!visibleMember(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean visibleMember(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void describe(Class<?> c, TreeSet<String> lines) {
        String t = c.getName();
        StringBuilder type = new StringBuilder(t + " : " + c.toGenericString());
        Type sup = c.getGenericSuperclass();
        if (sup != null && sup != Object.class && !c.isEnum() && !c.isRecord()) {
            type.append(" extends ").append(sup.getTypeName());
        }
        Type[] ifaces = c.getGenericInterfaces();
        if (ifaces.length > 0) {
            type.append(c.isInterface() ? " extends " : " implements ")
                    .append(Arrays.stream(ifaces).map(Type::getTypeName).sorted().collect(Collectors.joining(", ")));
        }
        lines.add(type.toString());
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (visibleMember(k.getModifiers()) && !k.isSynthetic()) {
                lines.add(t + " : " + k.toGenericString());
            }
        }
        for (Method m : c.getDeclaredMethods()) {
            if (visibleMember(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                lines.add(t + " : " + m.toGenericString());
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (visibleMember(f.getModifiers()) && !f.isSynthetic()) {
                lines.add(t + " : " + f.toGenericString());
            }
        }
    }
}
