package org.tunekit.dispatcher.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code tunekit run}: runs a bundled example experiment with a small built-in manager. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run an example experiment end to end: a built-in manager drives the real dispatcher process over a pipe.")
final class RunCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("run");
    }
}
