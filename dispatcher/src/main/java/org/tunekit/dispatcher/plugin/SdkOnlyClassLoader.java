package org.tunekit.dispatcher.plugin;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The parent of every plugin class loader: the JDK's platform classes plus the SDK's
 * {@code org.tunekit.sdk} packages, and nothing else of the dispatcher's class path.
 */
final class SdkOnlyClassLoader extends ClassLoader {
    private static final String SDK_PACKAGE = "org.tunekit.sdk.";
    private static final String SDK_RESOURCES = "org/tunekit/sdk/";
    private final ClassLoader sdkLoader;

    SdkOnlyClassLoader(ClassLoader sdkLoader) {
        super("tunekit-sdk-only", ClassLoader.getPlatformClassLoader());
        this.sdkLoader = sdkLoader;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (name.startsWith(SDK_PACKAGE)) {
            return sdkLoader.loadClass(name);
        }
        throw new ClassNotFoundException(name + " (plugins see only the JDK and the Tunekit SDK)");
    }

    @Override
    protected URL findResource(String name) {
        return name.startsWith(SDK_RESOURCES) ? sdkLoader.getResource(name) : null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        return name.startsWith(SDK_RESOURCES) ? sdkLoader.getResources(name) : Collections.emptyEnumeration();
    }
}
