package org.tunekit.bench.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs one sub-command of {@code tunekit-bench} as the command line would, without the root command ({@link org.tunekit.bench.BenchMain}). */
public final class Commands {
    private Commands() {}

    /** Runs {@code command} with {@code args}, its output and errors going to {@code out} and {@code err}; returns its exit status. */
    public static int execute(Object command, String[] args, ByteArrayOutputStream out, ByteArrayOutputStream err) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        return cl.execute(args);
    }
}
