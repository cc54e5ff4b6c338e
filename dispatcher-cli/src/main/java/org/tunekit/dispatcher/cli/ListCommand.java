package org.tunekit.dispatcher.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.PluginConfigurationException;
import org.tunekit.dispatcher.plugin.PluginPath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tunekit list}: every algorithm found, its kind and where it came from. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List every tuner, assessor and advisor found, with the jar it came from.")
public final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--plugins", paramLabel = "DIR", description = "Also look in this plugin directory. Repeatable.")
    List<Path> plugins = new ArrayList<>();

    @Override
    public Integer call() {
        LoggingSetup.configure(System.getenv(), "warn");
        var out = spec.commandLine().getOut();
        AlgorithmCatalog catalog;
        try {
            catalog = AlgorithmCatalog.discover(PluginPath.directories(plugins, System.getenv()));
        } catch (PluginConfigurationException e) {
            spec.commandLine().getErr().println("tunekit list: " + e.getMessage());
            return 1;
        }
        int nameWidth = 4;
        for (var e : catalog.entries()) {
            nameWidth = Math.max(nameWidth, e.provider().name().length());
        }
        String fmt = "%-9s %-" + nameWidth + "s  %s%n";
        out.printf(fmt, "KIND", "NAME", "FROM");
        for (var e : catalog.entries()) {
            out.printf(fmt, e.kind().label(), e.provider().name(), e.origin());
            if (!e.provider().description().isEmpty()) {
                out.printf("%-9s %-" + nameWidth + "s    %s%n", "", "", e.provider().description());
            }
        }
        for (String p : catalog.problems()) {
            out.println("problem: " + p);
        }
        out.flush();
        return catalog.problems().isEmpty() ? 0 : 1;
    }
}
