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
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
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

    /**
     * A provider that was found but cannot be used; naming it in a config gives {@code reason}.
     */
    private record Rejected(AlgorithmKind kind, String name, String reason) {}

    /** What one discovery pass collects. */
    private static final class Found {
        final List<Entry> entries = new ArrayList<>();
        final List<Rejected> rejected = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        final Map<AlgorithmProvider, SpiCheck.Declared> declared = new IdentityHashMap<>();
    }

    private final List<Entry> entries;
    private final List<Rejected> rejected;
    private final List<String> problems;
    private final Map<AlgorithmProvider, SpiCheck.Declared> declared;
    private final ClassLoader sdkLoader;

    private AlgorithmCatalog(Found found, ClassLoader sdkLoader) {
        this.entries = List.copyOf(found.entries);
        this.rejected = List.copyOf(found.rejected);
        this.problems = List.copyOf(found.problems);
        this.declared = found.declared;
        this.sdkLoader = sdkLoader;
    }

    /**
     * Finds the built-ins and every plugin in {@code pluginDirectories}.
     *
     * @throws PluginConfigurationException if a plugin directory does not exist
     */
    public static AlgorithmCatalog discover(List<Path> pluginDirectories) {
        ClassLoader appLoader = AlgorithmCatalog.class.getClassLoader();
        Found found = new Found();
        load(appLoader, "built-in", List.of(), SpiCheck.Declared.NONE, found);
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
                SpiCheck.Declared declared;
                try {
                    declared = SpiCheck.declared(jars, null);
                } catch (PluginConfigurationException e) {
                    found.problems.add("plugin " + unit + ": " + e.getMessage());
                    declared = SpiCheck.Declared.NONE;
                }
                ClassLoader loader = new URLClassLoader("tunekit-plugin:" + unit.getFileName(), urls(jars, null), parent);
                load(loader, unit.toString(), jars, declared, found);
            }
        }
        found.entries.sort(Comparator.comparing((Entry e) -> e.kind()).thenComparing(e -> e.provider().name().toLowerCase(Locale.ROOT)));
        reportSharedNames(found);
        return new AlgorithmCatalog(found, appLoader);
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

    private static void load(ClassLoader loader, String origin, List<Path> jars, SpiCheck.Declared declared, Found found) {
        boolean plugin = !jars.isEmpty();
        String versionProblem = SpiCheck.versionProblem(declared);
        for (AlgorithmKind kind : AlgorithmKind.values()) {
            ServiceLoader<? extends AlgorithmProvider> sl = ServiceLoader.load(kind.providerType(), loader);
            List<ServiceLoader.Provider<? extends AlgorithmProvider>> listed;
            try {
                listed = sl.stream().<ServiceLoader.Provider<? extends AlgorithmProvider>>map(x -> x).toList();
            } catch (ServiceConfigurationError e) {
                found.problems.add(kind.label() + " providers of " + origin + " cannot be listed: " + e.getMessage());
                continue;
            }
            for (ServiceLoader.Provider<? extends AlgorithmProvider> p : listed) {
                String what = kind.label() + " provider " + p.type().getName() + " from " + origin;
                if (plugin && versionProblem != null) {
                    reject(found, kind, p, what + " " + versionProblem);
                    continue;
                }
                try {
                    List<String> missing = SpiCheck.missingMethods(p.type(), kind.providerType());
                    if (!missing.isEmpty()) {
                        reject(found, kind, p, SpiCheck.missingMessage(what, p.type(), missing, declared));
                        continue;
                    }
                    AlgorithmProvider provider = p.get();
                    String name = provider.name();
                    String where = plugin ? origin : originOf(provider.getClass());
                    found.entries.add(new Entry(kind, provider, where));
                    found.declared.put(provider, declared);
                    if (name == null || name.isBlank()) {
                        found.problems.add(what + " has no name: its name() returned " + (name == null ? "null" : "'" + name + "'"));
                    }
                } catch (ServiceConfigurationError e) {
                    Throwable cause = e.getCause() != null ? e.getCause() : e;
                    found.problems.add(what + " could not be created: " + cause);
                } catch (LinkageError e) {
                    found.problems.add(SpiCheck.linkageMessage(what, e, declared));
                } catch (RuntimeException e) {
                    found.problems.add(what + " could not be created: " + e);
                }
            }
            if (plugin && listed.isEmpty()) {
                UnlistedProviders.find(kind, jars, loader).forEach(c -> found.problems.add(UnlistedProviders.message(kind, c, origin)));
            }
        }
    }

    /** Names (or aliases) answered by more than one provider of a kind: using one is an error, so say so up front. */
    private static void reportSharedNames(Found found) {
        Map<String, List<Entry>> byName = new java.util.TreeMap<>();
        for (Entry e : found.entries) {
            List<String> names = new ArrayList<>();
            names.add(e.provider().name());
            names.addAll(e.provider().aliases());
            names.stream().filter(n -> n != null && !n.isBlank()).map(n -> e.kind().label() + " '" + n.toLowerCase(Locale.ROOT) + "'")
                    .distinct().forEach(key -> byName.computeIfAbsent(key, k -> new ArrayList<>()).add(e));
        }
        byName.forEach((key, list) -> {
            if (list.size() > 1) {
                found.problems.add(key + " is provided by " + list.stream()
                        .map(e -> e.provider().getClass().getName() + " (" + e.origin() + ")").collect(Collectors.joining(" and "))
                        + "; a config naming it is refused: remove all but one from the plugin directories, or rename one");
            }
        });
    }

    private static void reject(Found found, AlgorithmKind kind, ServiceLoader.Provider<? extends AlgorithmProvider> p, String reason) {
        found.problems.add(reason);
        String name = null;
        try {
            name = p.get().name();
        } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            // the name stays unknown: a config naming it gets the general list of problems
        }
        found.rejected.add(new Rejected(kind, name, reason));
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
            for (Rejected r : rejected) {
                if (r.kind() == kind && r.name() != null && r.name().equalsIgnoreCase(spec.name())) {
                    throw new PluginConfigurationException(spec.describe() + " cannot be used: " + r.reason());
                }
            }
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
                    .collect(Collectors.joining(" and ")) + "; none of them is used: remove all but one from the plugin directories, or rename one");
        }
        Entry entry = matches.get(0);
        return invoke(spec, entry.provider(), entry.origin(), declared.getOrDefault(entry.provider(), SpiCheck.Declared.NONE));
    }

    private static String article(AlgorithmKind kind) {
        return kind == AlgorithmKind.ASSESSOR || kind == AlgorithmKind.ADVISOR ? "an " + kind.label() : "a " + kind.label();
    }

    private Object invoke(AlgorithmSpec spec, AlgorithmProvider provider, String origin, SpiCheck.Declared declared) {
        ClassArguments args = spec.arguments();
        String by = "its provider " + provider.getClass().getName() + " (" + origin + ")";
        Object created;
        try {
            if (provider instanceof TunerProvider t) {
                created = t.create(args);
            } else if (provider instanceof AssessorProvider a) {
                created = a.create(args);
            } else {
                created = ((AdvisorProvider) provider).create(args);
            }
        } catch (InvalidClassArgumentException e) {
            throw new PluginConfigurationException(spec.describe() + ": " + e.getMessage(), e);
        } catch (PluginConfigurationException e) {
            throw e;
        } catch (LinkageError e) {
            throw new PluginConfigurationException(SpiCheck.linkageMessage(spec.describe() + ", created by " + by + ",", e, declared), e);
        } catch (RuntimeException e) {
            throw new PluginConfigurationException(spec.describe() + " could not be created: " + by + " threw " + describeCause(e), e);
        }
        if (created == null) {
            throw new PluginConfigurationException(spec.describe() + ": " + by + " returned null");
        }
        checkImplements(spec, created.getClass(), declared);
        return created;
    }

    /** Fails with a clear message when {@code c} lacks a method the running SPI's interface of the spec's kind requires. */
    private static void checkImplements(AlgorithmSpec spec, Class<?> c, SpiCheck.Declared declared) {
        List<String> missing;
        try {
            missing = SpiCheck.missingMethods(c, spec.kind().pluginType());
        } catch (LinkageError e) {
            throw new PluginConfigurationException(SpiCheck.linkageMessage(spec.describe() + " (" + c.getName() + ")", e, declared), e);
        }
        if (!missing.isEmpty()) {
            throw new PluginConfigurationException(SpiCheck.missingMessage(spec.describe(), c, missing, declared));
        }
    }

    /** The exception and its causes, one {@code caused by} each, so the root cause is in the message. */
    private static String describeCause(Throwable e) {
        StringBuilder b = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            b.append("; caused by ").append(c);
            if (c.getCause() == c) {
                break;
            }
        }
        return b.toString();
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
            Class<?> c = loadClass(spec).type();
            return AlgorithmKind.ADVISOR.pluginType().isAssignableFrom(c) || AlgorithmKind.ADVISOR.providerType().isAssignableFrom(c);
        } catch (PluginConfigurationException e) {
            return false;
        }
    }

    private LoadedClass loadClass(AlgorithmSpec spec) {
        ClassLoader loader = sdkLoader;
        Path dir = spec.codeDirectory();
        SpiCheck.Declared declared = SpiCheck.Declared.NONE;
        if (dir != null) {
            if (!Files.isDirectory(dir)) {
                throw new PluginConfigurationException(spec.describe() + ": codeDirectory " + dir + " does not exist");
            }
            List<Path> jars = jarsIn(dir);
            declared = SpiCheck.declared(jars, dir);
            String versionProblem = SpiCheck.versionProblem(declared);
            if (versionProblem != null) {
                throw new PluginConfigurationException(spec.describe() + " from " + dir + " " + versionProblem);
            }
            loader = new URLClassLoader("tunekit-code:" + dir.getFileName(), urls(jars, dir), new SdkOnlyClassLoader(sdkLoader));
        }
        String where = dir != null ? " from " + dir : "";
        try {
            return new LoadedClass(Class.forName(spec.className(), true, loader), where, dir, declared);
        } catch (ClassNotFoundException e) {
            throw new PluginConfigurationException(spec.describe() + " cannot be loaded" + where + ": " + e, e);
        } catch (LinkageError e) {
            throw new PluginConfigurationException(SpiCheck.linkageMessage(spec.describe() + where, e, declared), e);
        }
    }

    /** A plugin class named by a config, with where it came from and the SPI version its jars declare. */
    private record LoadedClass(Class<?> type, String where, Path dir, SpiCheck.Declared declared) {}

    private Object createByClass(AlgorithmSpec spec) {
        LoadedClass loaded = loadClass(spec);
        Class<?> c = loaded.type();
        String where = loaded.where();
        Path dir = loaded.dir();
        SpiCheck.Declared declared = loaded.declared();
        AlgorithmKind kind = spec.kind();
        try {
            if (kind.providerType().isAssignableFrom(c)) {
                List<String> missing = SpiCheck.missingMethods(c, kind.providerType());
                if (!missing.isEmpty()) {
                    throw new PluginConfigurationException(SpiCheck.missingMessage(spec.describe() + where, c, missing, declared));
                }
                return invoke(spec, (AlgorithmProvider) c.getConstructor().newInstance(), dir != null ? dir.toString() : originOf(c), declared);
            }
            if (!kind.pluginType().isAssignableFrom(c)) {
                throw new PluginConfigurationException(spec.describe() + " implements neither " + kind.pluginType().getName()
                        + " nor " + kind.providerType().getName());
            }
            checkImplements(spec, c, declared);
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
            if (cause instanceof LinkageError le) {
                throw new PluginConfigurationException(SpiCheck.linkageMessage(spec.describe() + where, le, declared), cause);
            }
            throw new PluginConfigurationException(spec.describe() + " could not be created: the constructor of " + c.getName()
                    + where + " threw " + describeCause(cause), cause);
        } catch (ReflectiveOperationException e) {
            throw new PluginConfigurationException(spec.describe() + " needs a public no-argument constructor or one taking ClassArguments: " + e, e);
        } catch (LinkageError e) {
            throw new PluginConfigurationException(SpiCheck.linkageMessage(spec.describe() + where, e, declared), e);
        }
    }
}
