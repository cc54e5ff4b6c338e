package org.tunekit.runner;

import java.nio.file.Path;
import org.tunekit.nniconfig.ConfigException;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The experiment a command acts on, as its first argument: its id (or its folder), and where to look for the id. */
public final class ExperimentArgument {
    @Parameters(index = "0", paramLabel = "ID", description = "The experiment's id, or its folder.")
    String experiment;

    @Option(names = "--dir", paramLabel = "DIR", description = "Where to look for the id besides the default place (see tunekit run --help).")
    Path dir;

    /**
     * The experiment's folder.
     *
     * @throws ConfigException when no experiment has that id
     */
    Path folder() {
        return ExperimentFolders.find(experiment, dir, System.getenv());
    }
}
