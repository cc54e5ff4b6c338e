package org.tunekit.sdk.spi;

import java.util.Objects;

/**
 * The version of the plugin SPI: every public type, method and field of the {@code org.tunekit.sdk}
 * packages, whose surface is recorded in {@code sdk/spi-signatures.txt} and checked by the build.
 *
 * <p>The rule: adding something (a type, a default method, a method on a class) raises the
 * <em>minor</em> version; removing or changing anything (including adding an abstract method to an
 * interface a plugin implements) raises the <em>major</em> version and resets the minor. A plugin
 * built against SPI {@code a.b} runs on a Tunekit whose SPI is {@code x.y} when {@code a == x} and
 * {@code b <= y}.
 *
 * <p>A plugin author does nothing to record the version: the SDK jar carries an annotation
 * processor that {@code javac} runs while compiling the plugin, and it writes the SPI version of the
 * SDK on the compile class path to {@value #RECORD_RESOURCE} in the plugin's classes. A jar built
 * without it (annotation processing switched off, another compiler) may say the same with the
 * manifest attribute {@value #MANIFEST_ATTRIBUTE}; a jar that says nothing is still checked method by
 * method when it is loaded.
 */
public final class SpiVersion implements Comparable<SpiVersion> {

    /** The major version of this SDK's SPI. */
    public static final int MAJOR = 2;

    /** The minor version of this SDK's SPI. */
    public static final int MINOR = 0;

    /** {@code MAJOR.MINOR} as text. */
    public static final String CURRENT_TEXT = MAJOR + "." + MINOR;

    /** Where the SPI version a plugin was compiled against is recorded in its jar, as {@code spi-version=1.0}. */
    public static final String RECORD_RESOURCE = "META-INF/tunekit/plugin.properties";

    /** The key of the version in {@value #RECORD_RESOURCE}. */
    public static final String RECORD_KEY = "spi-version";

    /** The jar manifest attribute a plugin built without the recorder may set instead. */
    public static final String MANIFEST_ATTRIBUTE = "Tunekit-Spi-Version";

    private static final SpiVersion CURRENT = new SpiVersion(MAJOR, MINOR);

    private final int major;
    private final int minor;

    private SpiVersion(int major, int minor) {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("SPI version numbers must not be negative: " + major + "." + minor);
        }
        this.major = major;
        this.minor = minor;
    }

    /** The SPI version of the SDK this code runs with. */
    public static SpiVersion current() {
        return CURRENT;
    }

    /** A version from its numbers. */
    public static SpiVersion of(int major, int minor) {
        return new SpiVersion(major, minor);
    }

    /**
     * Reads {@code MAJOR.MINOR} (surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the text when it is not two non-negative numbers
     */
    public static SpiVersion parse(String text) {
        Objects.requireNonNull(text, "text");
        String t = text.strip();
        int dot = t.indexOf('.');
        try {
            if (dot > 0 && dot == t.lastIndexOf('.')) {
                return new SpiVersion(Integer.parseInt(t.substring(0, dot)), Integer.parseInt(t.substring(dot + 1)));
            }
        } catch (IllegalArgumentException e) {
            // not numbers, or negative ones: the message below
        }
        throw new IllegalArgumentException("'" + text + "' is not an SPI version (expected MAJOR.MINOR, such as 1.0)");
    }

    /** The major version. */
    public int major() {
        return major;
    }

    /** The minor version. */
    public int minor() {
        return minor;
    }

    /**
     * Whether a plugin compiled against {@code pluginVersion} runs on this SPI: same major, and a
     * minor no higher than this one.
     */
    public boolean runs(SpiVersion pluginVersion) {
        return pluginVersion.major == major && pluginVersion.minor <= minor;
    }

    @Override
    public int compareTo(SpiVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SpiVersion v && v.major == major && v.minor == minor;
    }

    @Override
    public int hashCode() {
        return 31 * major + minor;
    }

    /** {@code MAJOR.MINOR}. */
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
