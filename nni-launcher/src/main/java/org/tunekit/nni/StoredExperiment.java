package org.tunekit.nni;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * A stopped experiment, found as {@code nnictl resume} and {@code nnictl view} find it: in the
 * experiment list (it must be {@code STOPPED}), or in a folder given, and its config read from the
 * manager's database, {@code EXPERIMENTS_DIR/ID/db/nni.sqlite} (table {@code ExperimentProfile},
 * column {@code params}, the newest {@code revision}).
 *
 * @param id             the experiment id
 * @param experimentsDir the experiments folder holding {@code ID/}
 * @param config         the config the manager stored (what was posted when it was created)
 */
record StoredExperiment(String id, Path experimentsDir, Map<String, Object> config) {

    /**
     * Finds a stopped experiment.
     *
     * @param experimentsDir the folder given with {@code --experiment-dir}, or {@code null} to look in the experiment list
     */
    static StoredExperiment find(String id, Path experimentsDir, ExperimentRegistry registry, String verb) throws IOException {
        ExperimentLauncher.checkId(id);
        Path dir;
        if (experimentsDir != null) {
            dir = experimentsDir.toAbsolutePath().normalize();
        } else {
            registry.markGoneAsStopped(ExperimentStopper::isAlive);
            Map<String, Object> entry = registry.read().get(id);
            if (entry == null) {
                throw new LaunchException("no experiment " + id + " in " + registry.file() + " ('nnictl experiment list --all' lists "
                        + "them); for an experiment kept elsewhere, give the folder that holds " + id + "/: --experiment-dir DIR");
            }
            if (!"STOPPED".equals(entry.get("status"))) {
                throw new LaunchException("experiment " + id + " is not stopped (status " + entry.get("status") + ", port "
                        + entry.get("port") + "): only a stopped experiment can be " + verb + "; stop it first: tunekit nni stop " + id);
            }
            dir = Path.of(String.valueOf(entry.get("logDir")));
        }
        Path db = dir.resolve(id).resolve("db").resolve("nni.sqlite");
        if (!Files.isRegularFile(db)) {
            throw new LaunchException("experiment " + id + " has no database at " + db + (experimentsDir != null
                    ? "; --experiment-dir is the folder that holds " + id + "/ (by default ~/nni-experiments)" : ""));
        }
        Map<String, Object> config = readConfig(db, id);
        if (config.containsKey("trainingServicePlatform")) {
            throw new LaunchException("experiment " + id + " was made with NNI's v1 config format, which tunekit nni does not "
                    + "handle; use nnictl " + ("viewed".equals(verb) ? "view" : "resume") + " for it");
        }
        return new StoredExperiment(id, dir, config);
    }

    /**
     * The launch that starts NNI's manager on this stopped experiment again ({@code resume} or {@code view}), with the
     * manager found from {@code manager}'s options (its notes are printed on {@code err}).
     */
    ExperimentLauncher.Request relaunch(String action, String level, int port, boolean foreground, ManagerOptions manager,
                                        Map<String, String> env, PrintWriter err) {
        NniInstallation nni = NniInstallation.find(manager.nniNode, manager.python, System.getenv());
        nni.notes().forEach(n -> err.println("WARNING: " + n));
        Path interpreter = ExperimentLauncher.interpreter(manager.interpreter);
        return new ExperimentLauncher.Request(action, id, config, mode(), experimentsDir, level, experimentName(), nniManagerIp(),
                port, foreground, null, interpreter, nni, env, Duration.ofSeconds(manager.timeoutSeconds));
    }

    /** What a command makes of a stopped experiment it starts NNI's manager on again. */
    interface Relaunch {
        ExperimentLauncher.Request request(StoredExperiment stored) throws IOException;
    }

    /**
     * The body of {@code tunekit nni resume} and {@code view}: finds the stopped experiment, launches NNI's manager on it
     * as {@code relaunch} says, and returns the exit status; an error is printed as {@code tunekit nni COMMAND: ...}.
     *
     * @param verb what is done to the experiment, for the errors ({@code resumed}, {@code viewed})
     */
    static int launch(String command, String verb, String id, Path experimentsDir, PrintWriter out, PrintWriter err, Relaunch relaunch)
            throws InterruptedException {
        try {
            ExperimentRegistry registry = ExperimentRegistry.forHome(ManagerOptions.home());
            StoredExperiment stored = find(id, experimentsDir, registry, verb);
            return new ExperimentLauncher(out, registry).launch(relaunch.request(stored));
        } catch (LaunchException | IOException e) {
            out.flush();
            err.println("tunekit nni " + command + ": " + e.getMessage());
            return 1;
        }
    }

    static Map<String, Object> readConfig(Path db, String id) throws IOException {
        SQLiteConfig cfg = new SQLiteConfig();
        cfg.setReadOnly(true);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db, cfg.toProperties());
             PreparedStatement st = c.prepareStatement("select params from ExperimentProfile where id=? order by revision DESC")) {
            st.setString(1, id);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw new LaunchException(db + " holds no profile of experiment " + id);
                }
                Object parsed = ManagerClient.GSON.fromJson(rs.getString(1), Object.class);
                if (!(parsed instanceof Map<?, ?> m)) {
                    throw new LaunchException(db + ": the stored config of " + id + " is not a JSON object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> config = (Map<String, Object>) m;
                return config;
            }
        } catch (SQLException e) {
            throw new IOException("cannot read " + db + ": " + e.getMessage(), e);
        }
    }

    /** The manager's {@code --mode}: the training service's platform, or {@code hybrid} for several. */
    String mode() {
        Object ts = config.get("trainingService");
        if (ts instanceof List) {
            return "hybrid";
        }
        if (ts instanceof Map<?, ?> m && m.get("platform") instanceof String p) {
            return p;
        }
        throw new LaunchException("the stored config of " + id + " has no trainingService.platform");
    }

    String logLevel() {
        return config.get("logLevel") instanceof String s ? s : "info";
    }

    String experimentName() {
        return config.get("experimentName") instanceof String s ? s : null;
    }

    String nniManagerIp() {
        return config.get("nniManagerIp") instanceof String s ? s : null;
    }
}
