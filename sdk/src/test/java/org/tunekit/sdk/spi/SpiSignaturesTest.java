package org.tunekit.sdk.spi;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Keeps the SPI from changing by accident: the SDK's public surface must equal the committed
 * {@code sdk/spi-signatures.txt}, and a change must come with the SPI version raised as the rule in
 * {@link SpiVersion} says (minor for additions, major for removals, changes and new abstract
 * methods). Regenerate the file after a deliberate change with
 * {@code ./mvnw -B -ntp -pl sdk test -Dtest=SpiSignaturesTest -Dtunekit.spi.update=true}.
 */
class SpiSignaturesTest {
    static final String FILE = "spi-signatures.txt";
    static final String UPDATE = "./mvnw -B -ntp -pl sdk test -Dtest=SpiSignaturesTest -Dtunekit.spi.update=true";
    private static final String VERSION_LINE = "spi-version ";

    @Test
    void theSurfaceMatchesTheCommittedSignaturesAndTheVersion() throws IOException {
        Path file = Path.of(System.getProperty("basedir", ".")).resolve(FILE);
        List<String> actual = SpiSurface.current();
        SpiVersion running = SpiVersion.current();
        boolean update = Boolean.getBoolean("tunekit.spi.update");
        if (!Files.exists(file)) {
            if (update) {
                write(file, running, actual);
                return;
            }
            fail(FILE + " is missing; create it with: " + UPDATE);
        }
        List<String> committedLines = Files.readAllLines(file, StandardCharsets.UTF_8);
        SpiVersion recorded = null;
        Set<String> committed = new LinkedHashSet<>();
        for (String l : committedLines) {
            if (l.startsWith(VERSION_LINE)) {
                recorded = SpiVersion.parse(l.substring(VERSION_LINE.length()));
            } else if (!l.isBlank() && !l.startsWith("#")) {
                committed.add(l);
            }
        }
        if (recorded == null) {
            fail(file + " has no '" + VERSION_LINE + "MAJOR.MINOR' line; regenerate it with: " + UPDATE);
        }
        List<String> removed = new ArrayList<>(committed);
        removed.removeAll(actual);
        List<String> added = new ArrayList<>(actual);
        added.removeAll(committed);
        List<String> newAbstract = added.stream().filter(SpiSignaturesTest::isAbstractMethod).toList();
        boolean breaking = !removed.isEmpty() || !newAbstract.isEmpty();

        String problem = null;
        if (running.compareTo(recorded) < 0) {
            problem = "SpiVersion is " + running + ", lower than the " + recorded + " recorded in " + FILE + "; versions only go up.";
        } else if (breaking && running.major() <= recorded.major()) {
            problem = "This change breaks plugins built against SPI " + recorded + ": raise SpiVersion.MAJOR to " + (recorded.major() + 1)
                    + " and set MINOR to 0 (every plugin must then be rebuilt), or undo the change"
                    + " (to add a method to an interface plugins implement, give it a default body: that is a minor change).";
        } else if (!breaking && !added.isEmpty() && running.equals(recorded)) {
            problem = "This change adds to the SPI: raise SpiVersion.MINOR to " + (recorded.minor() + 1)
                    + " (plugins using the addition then refuse to run on an older Tunekit), or undo the change.";
        }
        if (removed.isEmpty() && added.isEmpty() && running.equals(recorded)) {
            return;
        }
        if (problem == null && update) {
            write(file, running, actual);
            return;
        }
        StringBuilder msg = new StringBuilder("The SDK's public surface (the plugin SPI) differs from sdk/" + FILE + " (SPI " + recorded
                + "); SpiVersion is " + running + ".\n");
        removed.forEach(l -> msg.append("  removed or changed: ").append(l).append('\n'));
        for (String l : added) {
            msg.append(newAbstract.contains(l) ? "  new abstract method (breaks implementations): " : "  added: ").append(l).append('\n');
        }
        if (problem != null) {
            msg.append(problem).append(" Then regenerate the file: ").append(UPDATE);
        } else {
            msg.append("The version is right for this change; regenerate the file and commit it with the change: ").append(UPDATE);
        }
        fail(msg.toString());
    }

    private static boolean isAbstractMethod(String line) {
        String member = line.substring(line.indexOf(" : ") + 3);
        return member.contains(" abstract ") && member.contains("(") && !member.contains(" class ") && !member.contains(" interface ");
    }

    private static void write(Path file, SpiVersion version, List<String> lines) throws IOException {
        List<String> out = new ArrayList<>();
        out.add("# The public surface of tunekit-sdk: every public or protected type, constructor, method and field of the");
        out.add("# org.tunekit.sdk packages (org.tunekit.sdk.internal excepted). Checked by SpiSignaturesTest; after a deliberate");
        out.add("# change, raise org.tunekit.sdk.spi.SpiVersion (additions: minor; removals, changes, new abstract methods: major)");
        out.add("# and regenerate with: " + UPDATE);
        out.add(VERSION_LINE + version);
        out.addAll(lines);
        Files.write(file, out, StandardCharsets.UTF_8);
    }
}
