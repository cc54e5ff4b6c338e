package org.tunekit.nni;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The plugin folders an experiment was launched with, kept in its folder ({@code ID/tunekit-plugins}, one absolute
 * path a line) so that {@code tunekit nni resume ID} starts the same tuner without {@code --plugins} being given again.
 * NNI's manager stores the config but not the environment its tuner ran in, so without this a resumed experiment whose
 * tuner came from a plugin jar would fail with "unknown tuner".
 *
 * <p>The file is replaced whole (written beside, forced, then renamed over), so a kill at any moment leaves either
 * the old list or the new one.
 */
final class RememberedPlugins {
    static final String FILE_NAME = "tunekit-plugins";

    private RememberedPlugins() {}

    /** Remembers {@code dirs} (absolute, normalised) for the experiment whose folder is {@code experimentRoot}. */
    static void write(Path experimentRoot, List<Path> dirs) throws IOException {
        Files.createDirectories(experimentRoot);
        Path file = experimentRoot.resolve(FILE_NAME);
        Path tmp = experimentRoot.resolve(FILE_NAME + ".tmp");
        StringBuilder text = new StringBuilder();
        for (Path d : dirs) {
            text.append(d.toAbsolutePath().normalize()).append('\n');
        }
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The folders remembered for {@code experimentRoot}; empty when none were (or the experiment was made by nnictl). */
    static List<Path> read(Path experimentRoot) throws IOException {
        Path file = experimentRoot.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).map(Path::of).toList();
    }
}
