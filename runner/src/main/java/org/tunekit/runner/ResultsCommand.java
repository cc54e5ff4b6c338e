package org.tunekit.runner;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.ResultsOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tunekit results ID}: the results of an experiment, running or ended, as a table, CSV, JSON and a report. */
@Command(name = "results", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Print an experiment's best trials and parameters, and write its results (trials.csv, intermediate.csv, "
                + "experiment.json, report.html) to a folder. Works while the experiment runs.")
public final class ResultsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentArgument target;

    @Option(names = "--top", paramLabel = "N", description = "Trials in the table (default: ${DEFAULT-VALUE}).")
    int top = 10;

    @Option(names = "--out", paramLabel = "DIR", description = "Write trials.csv, intermediate.csv, experiment.json and report.html here.")
    Path outDir;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ExperimentResults results;
        try {
            Path folder = target.folder();
            try (ExperimentStore store = ExperimentStore.open(folder, true)) {
                results = store.results();
            }
        } catch (ConfigException | RunnerException e) {
            err.println("tunekit results: " + e.getMessage());
            return 2;
        }
        out.println("Experiment " + results.id() + (results.name() == null ? "" : " (" + results.name() + ")"));
        print(results, top, out);
        if (outDir != null) {
            writeOutputs(results, outDir, out);
        }
        out.flush();
        return 0;
    }

    /** The summary, the table of the best trials and the best parameters. */
    static void print(ExperimentResults results, int top, PrintWriter out) {
        out.println(ResultsOutput.summaryLine(results, Clock.systemUTC()));
        if (results.best().isEmpty()) {
            out.println("No trial reported a final result.");
            return;
        }
        out.println();
        out.print(ResultsOutput.bestTable(results, Math.max(1, top), terminalWidth()));
        out.println();
        out.println("Best parameters:");
        out.print(ResultsOutput.bestParameters(results));
        ResultsOutput.paretoTable(results, terminalWidth()).ifPresent(table -> {
            out.println();
            out.println();
            out.print(table);
        });
    }

    /** Writes trials.csv, intermediate.csv, experiment.json and report.html to {@code dir} and says where they are. */
    static void writeOutputs(ExperimentResults results, Path dir, PrintWriter out) {
        try {
            java.nio.file.Files.createDirectories(dir);
            ResultsOutput.writeCsv(results, dir);
            ResultsOutput.writeJson(results, dir.resolve("experiment.json"));
            Path report = ResultsOutput.writeReport(results, dir);
            out.println();
            out.println("Report: " + report + "   (trials.csv, intermediate.csv, "
                    + (results.objectives().isEmpty() ? "" : "pareto.csv, ") + "experiment.json beside it)");
        } catch (java.io.IOException | RuntimeException e) {
            out.println("tunekit: could not write the results to " + dir + ": " + e.getMessage());
        }
    }

    private static int terminalWidth() {
        String columns = System.getenv("COLUMNS");
        try {
            return columns == null ? 120 : Math.max(60, Integer.parseInt(columns.strip()));
        } catch (NumberFormatException e) {
            return 120;
        }
    }
}
