package org.tunekit.nni;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tunekit nni}: nnictl's create, resume, view and stop, with Tunekit as the tuner of NNI's manager. */
@Command(name = "nni", mixinStandardHelpOptions = true,
        description = {"Run an experiment under NNI's own manager (its web UI, its training services) with Tunekit as the tuner: "
                + "what nnictl create, resume, view and stop do, except that the manager runs tunekit where nnictl has it run Python.",
            "Needs NNI 3 (pip install nni) and Java; nnictl's other commands (experiment list, trial ls, top, log, update) work "
                + "on these experiments as on any."},
        subcommands = {CreateCommand.class, ResumeCommand.class, ViewCommand.class, StopCommand.class, CommandLine.HelpCommand.class})
public final class NniCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
