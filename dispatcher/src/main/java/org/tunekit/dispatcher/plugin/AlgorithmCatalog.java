package org.tunekit.dispatcher.plugin;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.spi.AlgorithmProvider;
import org.tunekit.sdk.spi.AssessorProvider;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Every algorithm that can be named: the built-ins on the dispatcher's class path and the providers
 * of plugin jars. Each jar directly in a plugin directory, and each sub-directory (all its jars
 * together), gets its own class loader that sees only the SDK.
 */
public final class AlgorithmCatalog {

    /**
     * One algorithm found.
     *
     * @param kind     tuner, assessor or advisor
     * @param provider the provider
     * @param origin   where it came from: the jar's path, or {@code built-in}
     */
    public record Entry(AlgorithmKind kind, AlgorithmProvider provider, String origin) {
        /** True when {@code name} is this entry's name or one of its aliases, ignoring case. */
        boolean answersTo(String name) {
            return provider.name().equalsIgnoreCase(name)
                    || provider.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name));
        }
    }

    private final List<Entry> entries;
    private final List<String> problems;
    private final ClassLoader sdkLoader;

    private AlgorithmCatalog(List<Entry> entries, List<String> problems, ClassLoader sdkLoader) {
        this.entries = List.copyOf(entries);
        this.problems = List.copyOf(problems);
        this.sdkLoader = sdkLoader;
    }

    /**
     * Finds the built-ins and every plugin in {@code pluginDirectories}.
     *
     * @throws PluginConfigurationException if a plugin directory does not exist
     */
    public static AlgorithmCatalog discover(List<Path> pluginDirectories) {
        ClassLoader appLoader = AlgorithmCatalog.class.getClassLoader();
        List<Entry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        load(appLoader, "built-in", entries, problems);
        SdkOnlyClassLoader parent = new SdkOnlyClassLoader(appLoader);
        for (Path dir : pluginDirectories) {
            if (!Files.isDirectory(dir)) {
                throw new PluginConfigurationException("plugin directory " + dir + " does not exist or is not a directory");
            }
            for (Path unit : pluginUnits(dir)) {
                List<Path> jars = Files.isDirectory(unit) ? jarsIn(unit) : List.of(unit);
                if (jars.isEmpty()) {
                    continue;
                }
                ClassLoader loader = new URLClassLoader("tunekit-plugin:" + unit.getFileName(), urls(jars, null), parent);
                load(loader, unit.toString(), entries, problems);
            }
        }
        entries.sort(Comparator.comparing((Entry e) -> e.kind()).thenComparing(e -> e.provider().name().toLowerCase(Locale.ROOT)));
        return new AlgorithmCatalog(entries, problems, appLoader);
    }

    private static List<Path> pluginUnits(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Files.isDirectory(p) || p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new PluginConfigurationException("cannot list plugin directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static List<Path> jarsIn(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new PluginConfigurationException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    private static URL[] urls(List<Path> jars, Path classesDir) {
        List<URL> urls = new ArrayList<>();
        try {
            if (classesDir != null) {
                urls.add(classesDir.toUri().toURL());
            }
            for (Path j : jars) {
                urls.add(j.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new PluginConfigurationException("bad plugin path: " + e.getMessage(), e);
        }
        return urls.toArray(URL[]::new);
    }

    private static void load(ClassLoader loader, String origin, List<Entry> entries, List<String> problems) {
        for (AlgorithmKind kind : AlgorithmKind.values()) {
            ServiceLoader<? extends AlgorithmProvider> sl = ServiceLoader.load(kind.providerType(), loader);
            for (ServiceLoader.Provider<? extends AlgorithmProvider> p : sl.stream().toList()) {
                try {
                    AlgorithmProvider provider = p.get();
                    String where = "built-in".equals(origin) ? originOf(provider.getClass()) : origin;
                    entries.add(new Entry(kind, provider, where));
                } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                    problems.add(kind.label() + " provider " + p.type().getName() + " from " + origin + " could not be created: " + e);
                }
            }
        }
    }

    private static String originOf(Class<?> c) {
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return "built-in";
        }
        try {
            return Path.of(cs.getLocation().toURI()).toString();
        } catch (Exception e) {
            return cs.getLocation().toString();
        }
    }

    /** Every algorithm found, by kind then name. */
    public List<Entry> entries() {
        return entries;
    }

    /** Providers that were listed but could not be created (the catalog still works without them). */
    public List<String> problems() {
        return problems;
    }

    /**
     * Creates the algorithm an experiment config entry names.
     *
     * @throws PluginConfigurationException naming the entry and what is wrong: an unknown name (listing
     *                                      what is available), an ambiguous one (listing where each comes from), a class that
     *                                      cannot be loaded, or bad class arguments
     */
    public <T> T create(AlgorithmSpec spec, Class<T> type) {
        Object created = spec.name() != null && spec.className() == null ? createByName(spec) : createByClass(spec);
        return type.cast(created);
    }

    private Object createByName(AlgorithmSpec spec) {
        AlgorithmKind kind = spec.kind();
        List<Entry> matches = entries.stream().filter(e -> e.kind() == kind && e.answersTo(spec.name())).toList();
        if (matches.isEmpty()) {
            String available = entries.stream().filter(e -> e.kind() == kind).map(e -> e.provider().name())
                    .collect(Collectors.joining(", "));
            StringBuilder msg = new StringBuilder("unknown " + kind.label() + " '" + spec.name() + "'; available " + kind.label() + "s: "
                    + (available.isEmpty() ? "none" : available));
            entries.stream().filter(e -> e.kind() != kind && e.answersTo(spec.name())).findFirst().ifPresent(e ->
                    msg.append(" ('").append(e.provider().name()).append("' is ").append(article(e.kind())).append(")"));
            problems.forEach(p -> msg.append("\n  ").append(p));
            throw new PluginConfigurationException(msg.toString());
        }
        if (matches.size() > 1) {
            throw new PluginConfigurationException(kind.label() + " name '" + spec.name() + "' is ambiguous: it is provided by "
                    + matches.stream().map(e -> e.provider().getClass().getName() + " (" + e.origin() + ")")
                    .collect(Collectors.joining(" and ")) + "; remove all but one");
        }
        return invoke(spec, matches.get(0).provider());
    }

    private static String article(AlgorithmKind kind) {
        return kind == AlgorithmKind.ASSESSOR || kind == AlgorithmKind.ADVISOR ? "an " + kind.label() : "a " + kind.label();
    }

    private Object invoke(AlgorithmSpec spec, AlgorithmProvider provider) {
        ClassArguments args = spec.arguments();
        try {
            Object created;
            if (provider instanceof TunerProvider t) {
                created = t.create(args);
            } else if (provider instanceof AssessorProvider a) {
                created = a.create(args);
            } else {
                created = ((AdvisorProvider) provider).create(args);
            }
            if (created == null) {
                throw new PluginConfigurationException(spec.describe() + ": its provider " + provider.getClass().getName() + " returned null");
            }
            return created;
        } catch (InvalidClassArgumentException e) {
            throw new PluginConfigurationException(spec.describe() + ": " + e.getMessage(), e);
        } catch (PluginConfigurationException e) {
            throw e;
        } catch (RuntimeException | LinkageError e) {
            throw new PluginConfigurationException(spec.describe() + " could not be created: " + e, e);
        }
    }

    /**
     * True when a {@code tuner} entry names an advisor. NNI 3's config classes move an
     * {@code advisor} entry into {@code tuner} before the manager sees it (NNI's own dispatcher then
     * tells them apart by the class it created), so under NNI's manager, {@code tuner: {name:
     * Hyperband}} is how an advisor arrives. A name counts when only advisors answer to it; a class
     * when it implements {@code Advisor} or {@code AdvisorProvider}. Anything that cannot be told
     * (an unknown name, a class that does not load) is not an advisor, so that creating it as a
     * tuner reports what is wrong.
     */
    public boolean namesAdvisor(AlgorithmSpec spec) {
        if (spec.name() != null && spec.className() == null) {
            return entries.stream().noneMatch(e -> e.kind() == spec.kind() && e.answersTo(spec.name()))
                    && entries.stream().anyMatch(e -> e.kind() == AlgorithmKind.ADVISOR && e.answersTo(spec.name()));
        }
        try {
            Class<?> c = loadClass(spec);
            return AlgorithmKind.ADVISOR.pluginType().isAssignableFrom(c) || AlgorithmKind.ADVISOR.providerType().isAssignableFrom(c);
        } catch (PluginConfigurationException e) {
            return false;
        }
    }

    private Class<?> loadClass(AlgorithmSpec spec) {
        ClassLoader loader = sdkLoader;
        Path dir = spec.codeDirectory();
        if (dir != null) {
            if (!Files.isDirectory(dir)) {
                throw new PluginConfigurationException(spec.describe() + ": codeDirectory " + dir + " does not exist");
            }
            loader = new URLClassLoader("tunekit-code:" + dir.getFileName(), urls(jarsIn(dir), dir), new SdkOnlyClassLoader(sdkLoader));
        }
        try {
            return Class.forName(spec.className(), true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new PluginConfigurationException(spec.describe() + " cannot be loaded" + (dir != null ? " from " + dir : "") + ": " + e, e);
        }
    }

    private Object createByClass(AlgorithmSpec spec) {
        Class<?> c = loadClass(spec);
        AlgorithmKind kind = spec.kind();
        try {
            if (kind.providerType().isAssignableFrom(c)) {
                return invoke(spec, (AlgorithmProvider) c.getConstructor().newInstance());
            }
            if (!kind.pluginType().isAssignableFrom(c)) {
                throw new PluginConfigurationException(spec.describe() + " implements neither " + kind.pluginType().getName()
                        + " nor " + kind.providerType().getName());
            }
            try {
                Constructor<?> withArgs = c.getConstructor(ClassArguments.class);
                return withArgs.newInstance(spec.arguments());
            } catch (NoSuchMethodException e) {
                if (!spec.arguments().asMap().isEmpty()) {
                    throw new PluginConfigurationException(spec.describe() + " has no public constructor taking ClassArguments, but classArgs were given");
                }
                return c.getConstructor().newInstance();
            }
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InvalidClassArgumentException) {
                throw new PluginConfigurationException(spec.describe() + ": " + cause.getMessage(), cause);
            }
            throw new PluginConfigurationException(spec.describe() + " could not be created: " + cause, cause);
        } catch (ReflectiveOperationException e) {
            throw new PluginConfigurationException(spec.describe() + " needs a public no-argument constructor or one taking ClassArguments: " + e, e);
        }
    }
}
