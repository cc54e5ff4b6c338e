package org.tunekit.runner.manager;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The {@link TrainingServiceProvider}s on the class path, by platform. */
public final class TrainingServices {
    private TrainingServices() {}

    /**
     * Every provider found, by platform.
     *
     * @throws IllegalStateException when two providers claim one platform, naming both
     */
    public static Map<String, TrainingServiceProvider> all() {
        Map<String, TrainingServiceProvider> found = new TreeMap<>();
        for (TrainingServiceProvider p : ServiceLoader.load(TrainingServiceProvider.class, TrainingServices.class.getClassLoader())) {
            TrainingServiceProvider before = found.putIfAbsent(p.platform(), p);
            if (before != null) {
                throw new IllegalStateException("two training services for platform '" + p.platform() + "': "
                        + before.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        return found;
    }
}
