package org.tunekit.nni;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Starts NNI's manager for an experiment the way nnictl does ({@code nni/experiment/launcher.py},
 * {@code start_experiment}), with {@code tunekit} as the manager's Python interpreter:
 *
 * <ol>
 *   <li>the port must be free (and the next one too for the training services that use a second
 *       port: hybrid, remote, openpai, kubeflow, frameworkcontroller, adl);</li>
 *   <li>{@code EXPERIMENTS_DIR/_latest} links to the experiment's folder;</li>
 *   <li>{@code node --max-old-space-size=4096 --trace-uncaught main.js --port P --experiment-id ID
 *       --action create|resume|view --mode PLATFORM --experiments-directory DIR --log-level LEVEL
 *       --foreground false|true [--url-prefix X] --python-interpreter TUNEKIT}, run in the
 *       {@code nni_node} folder with this process's environment; in the background it is detached
 *       (its own session) with stdout and stderr appended to {@code DIR/ID/log/nnictl_stdout.log}
 *       and {@code nnictl_stderr.log} after a header;</li>
 *   <li>{@code GET /check-status} until the REST server answers;</li>
 *   <li>the experiment goes into {@code ~/nni-experiments/.experiment} ({@link ExperimentRegistry});</li>
 *   <li>{@code POST /experiment} with the config JSON; the manager answers with its error if it
 *       refuses it.</li>
 * </ol>
 *
 * Then, unlike nnictl, it waits (up to 20 s) for the first trial, so that a tuner that cannot start
 * (a misspelt algorithm, bad class arguments, no Java) or a training service that cannot (an
 * unreachable machine) is reported here, with what the logs say, rather than only in the web UI.
 */
final class ExperimentLauncher {
    /** The training services for which the manager also listens on the port after the web UI's. */
    private static final Set<String> SECOND_PORT_PLATFORMS = Set.of("hybrid", "remote", "openpai", "kubeflow", "frameworkcontroller", "adl");
    /** What the manager runs through {@code /bin/sh} without quotes must not need them. */
    private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9/._+,:@%=-]+");
    private static final Pattern VALID_ID = Pattern.compile("[A-Za-z0-9_\\-]{1,32}");
    private static final Duration START_WATCH = Duration.ofSeconds(20);
    private static final Pattern STACK_FRAME = Pattern.compile("\\s+(at |\\.\\.\\. \\d+ more).*");

    /**
     * One launch.
     *
     * @param action         {@code create}, {@code resume} or {@code view}
     * @param id             the experiment id
     * @param config         the JSON to post
     * @param mode           the training service platform, or {@code hybrid}
     * @param experimentsDir the experiments folder (the manager's {@code --experiments-directory})
     * @param logLevel       the manager's log level
     * @param experimentName for the experiment list, or {@code null}
     * @param nniManagerIp   the config's {@code nniManagerIp}, or {@code null}
     * @param port           the web UI's port
     * @param foreground     stay attached and wait for the end
     * @param urlPrefix      the URL prefix, stripped of slashes, or {@code null}
     * @param interpreter    the manager's {@code --python-interpreter}: the tunekit launcher
     * @param nni            the manager
     * @param env            the environment the manager (and so the tuner) gets
     * @param timeout        how long to wait for the manager's REST server
     */
    record Request(String action, String id, Map<String, Object> config, String mode, Path experimentsDir, String logLevel,
                   String experimentName, String nniManagerIp, int port, boolean foreground, String urlPrefix, Path interpreter,
                   NniInstallation nni, Map<String, String> env, Duration timeout) {}

    private final PrintWriter out;
    private final ExperimentRegistry registry;
    private Path experimentLog;

    ExperimentLauncher(PrintWriter out, ExperimentRegistry registry) {
        this.out = out;
        this.registry = registry;
    }

    /** A new experiment id as NNI makes them: 8 different characters among a-z and 0-9. */
    static String newId(Path experimentsDir, ExperimentRegistry registry) throws IOException {
        SecureRandom random = new SecureRandom();
        Map<String, Map<String, Object>> known = registry.read();
        while (true) {
            List<Character> chars = new ArrayList<>();
            for (char c : "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray()) {
                chars.add(c);
            }
            Collections.shuffle(chars, random);
            StringBuilder id = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                id.append(chars.get(i));
            }
            if (!known.containsKey(id.toString()) && !Files.exists(experimentsDir.resolve(id.toString()))) {
                return id.toString();
            }
        }
    }

    static void checkId(String id) {
        if (!VALID_ID.matcher(id).matches()) {
            throw new LaunchException("'" + id + "' is not an experiment id (letters, digits, '-' and '_', at most 32)");
        }
    }

    /**
     * The {@code tunekit} the manager is to run as its Python interpreter: {@code option}, else the
     * launcher script that started this process (it says so in {@code -Dtunekit.launcher}).
     */
    static Path interpreter(Path option) {
        Path p;
        if (option != null) {
            p = option.toAbsolutePath().normalize();
        } else {
            String launcher = System.getProperty("tunekit.launcher");
            if (launcher == null || launcher.isBlank()) {
                throw new LaunchException("cannot tell where the tunekit launcher is (run this through the tunekit script, which "
                        + "says so in -Dtunekit.launcher, or give its path: --interpreter /path/to/tunekit)");
            }
            p = Path.of(launcher).toAbsolutePath().normalize();
        }
        if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
            throw new LaunchException(p + " is not an executable file; the manager must be able to run it as its Python interpreter");
        }
        if (!SHELL_SAFE.matcher(p.toString()).matches()) {
            throw new LaunchException("the path of tunekit, \"" + p + "\", has "
                    + (p.toString().chars().anyMatch(Character::isWhitespace) ? "a space" : "a character that /bin/sh reads specially")
                    + ". NNI's manager runs its tuner as '/bin/sh -c \"INTERPRETER -m nni ...\"' without quoting it, so the path "
                    + "must be plain. Make a wrapper at a plain path and give it instead:\n"
                    + "  mkdir -p ~/.local/bin && printf '#!/bin/sh\\nexec \"%s\" \"$@\"\\n' '" + p + "' > ~/.local/bin/tunekit-nni "
                    + "&& chmod +x ~/.local/bin/tunekit-nni\n"
                    + "  tunekit nni ... --interpreter ~/.local/bin/tunekit-nni");
        }
        return p;
    }

    /** The manager's command line. */
    static List<String> command(Request r) {
        List<String> cmd = new ArrayList<>(List.of(r.nni().node().toString(), "--max-old-space-size=4096", "--trace-uncaught",
                r.nni().nodeDir().resolve("main.js").toString(),
                "--port", String.valueOf(r.port()),
                "--experiment-id", r.id(),
                "--action", r.action(),
                "--mode", r.mode(),
                "--experiments-directory", r.experimentsDir().toString(),
                "--log-level", r.logLevel(),
                "--foreground", String.valueOf(r.foreground())));
        if (r.urlPrefix() != null) {
            cmd.add("--url-prefix");
            cmd.add(r.urlPrefix());
        }
        cmd.add("--python-interpreter");
        cmd.add(r.interpreter().toString());
        return cmd;
    }

    /** Starts the manager and the experiment; returns the exit status for the command. */
    int launch(Request r) throws IOException, InterruptedException {
        ensurePortIdle(r.port(), null);
        if (!"view".equals(r.action()) && SECOND_PORT_PLATFORMS.contains(r.mode())) {
            ensurePortIdle(r.port() + 1, "the " + r.mode() + " training service also needs the port after the web UI's");
        }
        Path root = r.experimentsDir().resolve(r.id());
        Path logDir = root.resolve("log");
        Files.createDirectories(logDir);
        experimentLog = logDir.resolve("experiment.log");
        linkLatest(r.experimentsDir(), r.id());

        info(switch (r.action()) {
            case "resume" -> "Resuming experiment, Experiment ID: ";
            case "view" -> "Viewing experiment, Experiment ID: ";
            default -> "Creating experiment, Experiment ID: ";
        } + r.id());
        ManagerClient client = new ManagerClient(r.port(), r.urlPrefix());
        Path managerLog = logDir.resolve("nnimanager.log");
        int trialsBefore = 0;
        Process manager = start(r, logDir);
        long startTime = System.currentTimeMillis();
        try {
            info("Starting web server...");
            waitForRestServer(manager, client, r.timeout(), logDir);
            registry.put(ExperimentRegistry.entry(r.id(), r.port(), startTime, r.mode(), r.experimentName(), manager.pid(),
                    r.experimentsDir(), r.urlPrefix()));
            info("Setting up...");
            ManagerClient.Answer answer = client.post("/experiment", r.config());
            if (!answer.ok()) {
                throw new LaunchException("NNI's manager refused the experiment: " + answer.error() + tail("its log", managerLog, 20)
                        + "\nFix the config and run again.");
            }
            if (!"view".equals(r.action())) {
                if ("resume".equals(r.action())) {
                    trialsBefore = client.trialJobs().size();
                }
                watchStart(manager, client, logDir, trialsBefore);
            }
        } catch (IOException e) {
            stopQuietly(manager, client);
            throw new LaunchException("lost NNI's manager: " + e.getMessage() + logs(logDir) + "\nThe manager was stopped.");
        } catch (RuntimeException | InterruptedException e) {
            stopQuietly(manager, client);
            throw e;
        }
        info("Web portal URLs: " + String.join(" ", webUrls(r)));
        if (r.foreground()) {
            return waitForEnd(manager, client);
        }
        info("To stop experiment run \"tunekit nni stop " + r.id() + "\" (\"nnictl stop " + r.id() + "\" works too)");
        return 0;
    }

    private Process start(Request r, Path logDir) throws IOException {
        List<String> cmd = command(r);
        ProcessBuilder pb = new ProcessBuilder();
        pb.directory(r.nni().nodeDir().toFile());
        pb.environment().clear();
        pb.environment().putAll(r.env());
        if (r.foreground()) {
            pb.command(cmd).inheritIO();
        } else {
            String header = "-".repeat(80) + "\nExperiment " + r.id() + " start: "
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS")) + "\n" + "-".repeat(80) + "\n";
            Path stdout = logDir.resolve("nnictl_stdout.log");
            Path stderr = logDir.resolve("nnictl_stderr.log");
            for (Path p : List.of(stdout, stderr)) {
                Files.writeString(p, header, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            // its own session, like nnictl's setpgrp: the terminal's Ctrl-C and hang-up do not reach it
            Path setsid = NniInstallation.onPath("setsid", r.env());
            List<String> detached = new ArrayList<>();
            if (setsid != null) {
                detached.add(setsid.toString());
            }
            detached.addAll(cmd);
            pb.command(detached)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(stdout.toFile()))
                    .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
        }
        try {
            return pb.start();
        } catch (IOException e) {
            throw new LaunchException("cannot start NNI's manager (" + cmd.get(0) + "): " + e.getMessage());
        }
    }

    private void waitForRestServer(Process manager, ManagerClient client, Duration timeout, Path logDir)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline) {
            if (!manager.isAlive()) {
                throw new LaunchException("NNI's manager exited with status " + manager.exitValue() + " before its web server started."
                        + logs(logDir));
            }
            try {
                client.status();
                return;
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new LaunchException("NNI's manager did not answer on port " + client.uri("").getPort() + " within " + timeout.toSeconds()
                + " s" + (last != null ? " (" + last.getMessage() + ")" : "") + "; it was stopped." + logs(logDir)
                + "\nIf the machine is just slow, give it longer: --timeout SECONDS.");
    }

    /**
     * Waits for the experiment to be under way: a trial submitted, or an end state the tuner reached
     * (its budget spent, nothing more to try). A failure (the tuner did not start, the training
     * service could not, the manager stopped) is reported with what the logs say.
     */
    private void watchStart(Process manager, ManagerClient client, Path logDir, int trialsBefore) throws InterruptedException {
        long deadline = System.nanoTime() + START_WATCH.toNanos();
        while (System.nanoTime() < deadline) {
            Map<?, ?> status = null;
            int trials = trialsBefore;
            try {
                status = client.status();
                trials = client.trialJobs().size();
            } catch (IOException e) {
                if (manager.isAlive() && !manager.waitFor(1, TimeUnit.SECONDS)) {
                    continue;
                }
            }
            if (!manager.isAlive() || status == null) {
                throw failedAtStart("NNI's manager exited (status " + manager.exitValue() + ") as the experiment started", logDir);
            }
            Object s = status.get("status");
            if ("ERROR".equals(s) || "STOPPING".equals(s) || "STOPPED".equals(s)) {
                Object errors = status.get("errors");
                throw failedAtStart("the experiment " + ("ERROR".equals(s) ? "failed" : "was stopped by the manager") + " as it started"
                        + (errors instanceof List<?> l && !l.isEmpty() ? ": " + String.join("\n  ", l.stream().map(String::valueOf).toList()) : ""),
                        logDir);
            }
            if (List.of("DONE", "NO_MORE_TRIAL", "TUNER_NO_MORE_TRIAL").contains(s) || trials > trialsBefore) {
                return;
            }
            Thread.sleep(250);
        }
        warn("no trial has started within " + START_WATCH.toSeconds() + " s; the web UI shows how it goes (the tuner's log: "
                + logDir.resolve("dispatcher.log") + ", the manager's: " + logDir.resolve("nnimanager.log") + ")");
    }

    private static LaunchException failedAtStart(String what, Path logDir) {
        List<String> tuner = errorLines(logDir.resolve("dispatcher.log"), "[ERROR]");
        List<String> manager = errorLines(logDir.resolve("nnimanager.log"), "] ERROR (");
        return new LaunchException(what
                + (tuner.isEmpty() ? "" : "\nThe tuner said:\n  " + String.join("\n  ", tuner))
                + (manager.isEmpty() ? "" : "\nThe manager said:\n  " + String.join("\n  ", manager))
                + "\nLogs: " + logDir.resolve("dispatcher.log") + " (the tuner), " + logDir.resolve("nnimanager.log")
                + " (the manager), " + logDir.resolve("nnictl_stderr.log") + " (their output)."
                + "\nThe manager was stopped. Fix the config and run again.");
    }

    private int waitForEnd(Process manager, ManagerClient client) throws InterruptedException {
        Thread hook = new Thread(() -> stopQuietly(manager, client), "tunekit-nni-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        String last = null;
        while (manager.isAlive()) {
            try {
                Object s = client.status().get("status");
                last = String.valueOf(s);
                if (List.of("DONE", "STOPPED", "ERROR").contains(last)) {
                    break;
                }
            } catch (IOException e) {
                // the manager is going away
            }
            manager.waitFor(2, TimeUnit.SECONDS);
        }
        stopQuietly(manager, client);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
        info("Experiment " + (last == null ? "ended" : last.toLowerCase(java.util.Locale.ROOT)) + "; NNI's manager stopped.");
        return "ERROR".equals(last) ? 1 : 0;
    }

    /** {@code DELETE /experiment}, then the process, as NNI's {@code Experiment.stop()} does. */
    private static void stopQuietly(Process manager, ManagerClient client) {
        if (!manager.isAlive()) {
            return;
        }
        try {
            if (client.delete("/experiment").ok() && manager.waitFor(60, TimeUnit.SECONDS)) {
                return;
            }
        } catch (IOException e) {
            // then by signal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        manager.destroy();
        try {
            if (!manager.waitFor(30, TimeUnit.SECONDS)) {
                manager.destroyForcibly();
            }
        } catch (InterruptedException e) {
            manager.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The web UI's addresses, as nnictl lists them: nniManagerIp, then every IPv4 address of this machine. */
    private static List<String> webUrls(Request r) {
        Set<String> ips = new LinkedHashSet<>();
        if (r.nniManagerIp() != null) {
            ips.add(r.nniManagerIp());
        }
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nif.isUp()) {
                    nif.inetAddresses().filter(a -> a instanceof Inet4Address).forEach(a -> ips.add(a.getHostAddress()));
                }
            }
        } catch (SocketException e) {
            ips.add("localhost");
        }
        if (ips.isEmpty()) {
            ips.add("localhost");
        }
        String suffix = r.urlPrefix() == null ? "" : "/" + r.urlPrefix();
        return ips.stream().map(ip -> "http://" + ip + ":" + r.port() + suffix).toList();
    }

    static void ensurePortIdle(int port, String why) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("localhost", port), 1000);
        } catch (IOException e) {
            return;
        }
        throw new LaunchException("port " + port + " is in use" + (why == null ? "" : " (" + why + ")")
                + ": another experiment's web UI? 'nnictl experiment list' shows them, 'tunekit nni stop --port " + port
                + "' stops one. Or choose another port: --port N.");
    }

    private static void linkLatest(Path experimentsDir, String id) {
        Path link = experimentsDir.resolve("_latest");
        try {
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, Path.of(id));
        } catch (IOException | UnsupportedOperationException e) {
            // nnictl only warns too
        }
    }

    private static String logs(Path logDir) {
        return tail("the manager's output", logDir.resolve("nnictl_stderr.log"), 12) + tail("its log", logDir.resolve("nnimanager.log"), 12);
    }

    /** The last error lines of a log (those holding {@code marker}), without stack traces. */
    static List<String> errorLines(Path file, String marker) {
        try {
            if (!Files.isRegularFile(file)) {
                return List.of();
            }
            List<String> errors = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> l.contains(marker)).toList();
            return errors.subList(Math.max(0, errors.size() - 3), errors.size());
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The last lines of a log (stack frames left out), introduced, or nothing when the file is absent or empty. */
    static String tail(String what, Path file, int lines) {
        try {
            if (!Files.isRegularFile(file)) {
                return "";
            }
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .filter(l -> !STACK_FRAME.matcher(l).matches()).toList();
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            if (last.stream().allMatch(String::isBlank)) {
                return "";
            }
            return "\n--- " + what + " (" + file + "), last lines:\n" + String.join("\n", last);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    void info(String message) {
        print(message, "INFO");
    }

    void warn(String message) {
        print("WARNING: " + message, "WARNING");
    }

    private void print(String message, String level) {
        String time = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss"));
        out.println("[" + time + "] " + message);
        out.flush();
        if (experimentLog != null) {
            try {
                Files.writeString(experimentLog, "[" + time + "] " + level + " (tunekit nni) " + message + "\n", StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                // the terminal has it
            }
        }
    }
}
