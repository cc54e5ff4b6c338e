package org.tunekit.nni;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stops experiments as nnictl picks them ({@code nnictl stop [ID] [--port P] [--all]}, {@code
 * parse_ids}): the one running experiment when nothing is named, the one on a port, every running
 * one, one id, the ids starting with what precedes a {@code *}, or the one id a prefix matches. Each
 * is stopped as NNI's {@code Experiment.stop()} does it: {@code DELETE /api/v1/nni/experiment}, then
 * waiting for the manager to exit (it stops its trials and the tuner first); a manager that does not
 * answer gets SIGTERM, as {@code nnictl stop} sends.
 */
final class ExperimentStopper {
    private final PrintWriter out;
    private final ExperimentRegistry registry;

    ExperimentStopper(PrintWriter out, ExperimentRegistry registry) {
        this.out = out;
        this.registry = registry;
    }

    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The ids to stop, or a {@link LaunchException} saying why there are none. */
    List<String> select(String id, Integer port, boolean all) throws IOException {
        registry.markGoneAsStopped(ExperimentStopper::isAlive);
        Map<String, Map<String, Object>> known = registry.read();
        List<String> running = ExperimentRegistry.running(known).stream().map(e -> String.valueOf(e.get("id"))).toList();
        if (running.isEmpty()) {
            throw new LaunchException("no experiment is running (" + registry.file() + ")");
        }
        if (all) {
            return running;
        }
        List<String> chosen = new ArrayList<>();
        if (port != null) {
            for (String r : running) {
                if (known.get(r).get("port") instanceof Number n && n.intValue() == port) {
                    chosen.add(r);
                }
            }
            if (id != null && !chosen.isEmpty() && !chosen.get(0).equals(id)) {
                throw new LaunchException("experiment " + id + " is not the one on port " + port + " (" + chosen.get(0) + " is)");
            }
        } else if (id == null) {
            if (running.size() > 1) {
                throw new LaunchException("several experiments are running; say which (an id, --port or --all):\n" + describe(known, running));
            }
            chosen.addAll(running);
        } else if (id.endsWith("*")) {
            String prefix = id.substring(0, id.length() - 1);
            running.stream().filter(r -> r.startsWith(prefix)).forEach(chosen::add);
        } else if (running.contains(id)) {
            chosen.add(id);
        } else {
            running.stream().filter(r -> r.startsWith(id)).forEach(chosen::add);
            if (chosen.size() > 1) {
                throw new LaunchException(id + " is ambiguous: " + String.join(" ", chosen));
            }
        }
        if (chosen.isEmpty()) {
            throw new LaunchException("no running experiment matches " + (id != null ? id : "port " + port)
                    + (known.containsKey(id) ? " (it is stopped already)" : "") + ":\n" + describe(known, running));
        }
        return chosen;
    }

    private static String describe(Map<String, Map<String, Object>> known, List<String> ids) {
        StringBuilder b = new StringBuilder();
        for (String r : ids) {
            Map<String, Object> e = known.get(r);
            b.append("  ").append(r).append("  name: ").append(e.get("experimentName")).append("  status: ").append(e.get("status"))
                    .append("  port: ").append(e.get("port")).append("  platform: ").append(e.get("platform")).append('\n');
        }
        return b.toString().stripTrailing();
    }

    /** Stops one experiment; true if its manager is gone. */
    boolean stop(String id) throws IOException, InterruptedException {
        Map<String, Object> e = registry.read().get(id);
        if (e == null) {
            throw new LaunchException("experiment " + id + " left " + registry.file() + " meanwhile");
        }
        out.println("Stopping experiment " + id);
        out.flush();
        Long pid = e.get("pid") instanceof Number n ? n.longValue() : null;
        Optional<ProcessHandle> manager = pid == null ? Optional.empty() : ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (manager.isPresent() && !looksLikeManager(manager.get())) {
            out.println("Process " + pid + " is no longer NNI's manager (" + manager.get().info().commandLine().orElse("?")
                    + "); the experiment is marked stopped.");
            manager = Optional.empty();
        }
        boolean gone = true;
        if (manager.isPresent()) {
            ProcessHandle p = manager.get();
            boolean asked = false;
            if (e.get("port") instanceof Number port) {
                try {
                    asked = new ManagerClient(port.intValue(), e.get("prefixUrl") instanceof String s ? s : null).delete("/experiment").ok();
                } catch (IOException ex) {
                    // it does not answer: the signal
                }
            }
            gone = asked && waitForExit(p, 60);
            if (!gone) {
                p.destroy();
                gone = waitForExit(p, 60);
            }
            if (!gone) {
                out.println("WARNING: NNI's manager (process " + pid + ") still runs 60 s after SIGTERM; end it yourself: kill -9 " + pid);
            }
        }
        if (gone) {
            registry.update(all -> {
                Map<String, Object> entry = all.get(id);
                if (entry != null && !"STOPPED".equals(entry.get("status"))) {
                    entry.put("status", "STOPPED");
                }
            });
            out.println("Stop experiment success.");
        }
        out.flush();
        return gone;
    }

    private static boolean looksLikeManager(ProcessHandle p) {
        Optional<String> line = p.info().commandLine();
        if (line.isEmpty()) {
            return true; // cannot tell (another user's process): trust the list, as nnictl does
        }
        return line.get().contains("main.js");
    }

    private static boolean waitForExit(ProcessHandle p, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        return !p.isAlive();
    }
}
