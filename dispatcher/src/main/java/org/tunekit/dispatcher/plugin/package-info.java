/**
 * Finding and creating algorithms: built-ins and plugin jars alike are discovered with
 * {@link java.util.ServiceLoader}; every plugin jar (or plugin sub-directory) gets its own class
 * loader whose parent exposes only the SDK, so a plugin's dependencies cannot clash with the
 * dispatcher's.
 */
package org.tunekit.dispatcher.plugin;
