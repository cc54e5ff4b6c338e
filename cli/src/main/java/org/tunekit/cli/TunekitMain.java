package org.tunekit.cli;

import java.io.PrintStream;
import java.util.Arrays;
import org.tunekit.dashboard.ViewCommand;
import org.tunekit.demo.DemoCommand;
import org.tunekit.dispatcher.cli.DispatchCommand;
import org.tunekit.dispatcher.cli.ListCommand;
import org.tunekit.gpus.CollectGpuInfo;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.katib.KatibCommand;
import org.tunekit.nni.NniCommand;
import org.tunekit.runner.ResultsCommand;
import org.tunekit.runner.RunCommand;
import org.tunekit.runner.SteeringCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tunekit} command. Besides its sub-commands it answers the calls an NNI manager makes to
 * its Python interpreter, so that {@code tunekit} can stand in for it: {@code -m nni --exp_params B64}
 * runs a dispatcher, {@code -m nni.tools.nni_manager_scripts.collect_version_info} and
 * {@code ...collect_gpu_info [--detail]} print one JSON line (the latter this machine's GPUs, found with
 * the {@code nvidia-smi} on {@code PATH}), and {@code -c CODE} fails at once.
 */
@Command(name = "tunekit", mixinStandardHelpOptions = true, versionProvider = TunekitMain.Version.class,
        description = "Hyperparameter tuning dispatcher speaking NNI's tuner protocol.",
        subcommands = {RunCommand.class, ViewCommand.class, ResultsCommand.class, SteeringCommands.Update.class, SteeringCommands.Enqueue.class, SteeringCommands.Stop.class, NniCommand.class, DispatchCommand.class, ListCommand.class, DemoCommand.class, KatibCommand.class, CommandLine.HelpCommand.class})
public final class TunekitMain implements Runnable {
    static final String VERSION = "0.1.0";

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs the command line and returns its exit status; GPUs are looked for with the {@code nvidia-smi} on {@code PATH}. */
    static int execute(String[] args, PrintStream out, PrintStream err) {
        return execute(args, out, err, NvidiaSmi.onProcessPath());
    }

    /** Runs the command line and returns its exit status; GPUs are looked for with {@code nvidiaSmi}. */
    static int execute(String[] args, PrintStream out, PrintStream err, NvidiaSmi nvidiaSmi) {
        if (args.length >= 1 && args[0].equals("-m")) {
            return pythonModule(args, out, err, nvidiaSmi);
        }
        if (args.length >= 1 && args[0].equals("-c")) {
            err.println("tunekit: '-c' runs Python code, which tunekit cannot do");
            return 1;
        }
        CommandLine cl = new CommandLine(new TunekitMain());
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        return cl.execute(args);
    }

    private static int pythonModule(String[] args, PrintStream out, PrintStream err, NvidiaSmi nvidiaSmi) {
        if (args.length < 2) {
            err.println("tunekit: -m needs a module name");
            return 2;
        }
        String module = args[1];
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        if (module.equals("nni")) {
            String[] dispatch = new String[rest.length + 1];
            dispatch[0] = "dispatch";
            System.arraycopy(rest, 0, dispatch, 1, rest.length);
            return execute(dispatch, out, err, nvidiaSmi);
        }
        if (module.endsWith("collect_version_info")) {
            out.println("{\"nniVersion\": \"tunekit-" + VERSION + "\", \"pythonVersion\": null, \"javaVersion\": \""
                    + System.getProperty("java.version") + "\"}");
            return 0;
        }
        if (module.endsWith("collect_gpu_info")) {
            // Like NNI's script: status 0 whatever nvidia-smi did; a failure is in the JSON.
            out.println(CollectGpuInfo.collect(nvidiaSmi, Arrays.asList(rest).contains("--detail")));
            return 0;
        }
        err.println("tunekit: no module named " + module);
        return 1;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** The version string. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"tunekit " + VERSION};
        }
    }
}
