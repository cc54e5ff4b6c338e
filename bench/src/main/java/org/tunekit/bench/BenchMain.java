package org.tunekit.bench;

import java.io.PrintStream;
import java.io.PrintWriter;
import org.tunekit.bench.curves.BenchCurvesCommand;
import org.tunekit.bench.library.BenchLibraryCommand;
import org.tunekit.bench.multiobjective.BenchMoCommand;
import org.tunekit.bench.quality.BenchCommand;
import org.tunekit.bench.runner.BenchRunnerCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code tunekit-bench} command: Tunekit's benchmarks, run from a checkout by the
 * {@code tunekit-bench} script at its root. They are kept out of the {@code tunekit} command, whose
 * class path carries neither JMH nor the benchmark suites nor their reference figures.
 */
@Command(name = "tunekit-bench",
        description = {"Tunekit's benchmarks, from a checkout. Each writes its figures (and, with --out, its report) as the "
                + "committed results under bench/results were written. The JMH benchmarks run with bench/run-benchmarks.sh."},
        subcommands = {BenchCommand.class, BenchMoCommand.class, BenchCurvesCommand.class, BenchRunnerCommand.class, BenchSoakCommand.class, BenchLibraryCommand.class,
            CommandLine.HelpCommand.class})
public final class BenchMain implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs the command line and returns its exit status. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new BenchMain());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
