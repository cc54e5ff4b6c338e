package org.tunekit.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tunekit.runner.ExperimentReader;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.ParetoFront;
import org.tunekit.runner.results.TrialRecord;

/**
 * One experiment as the dashboard's pages follow it: its overview and its trials, each stamped with the
 * revision at which it last changed, so that a page that has seen revision {@code r} is sent only what
 * changed after it ({@link #since}). The store is read again only when it changed
 * ({@link ExperimentReader#changeCount()}) and at most every {@link #LOOK_EVERY}, however many pages look:
 * a page that polls an experiment where nothing happens costs one cheap query a second, shared.
 */
final class ExperimentFeed implements AutoCloseable {
    static final Duration LOOK_EVERY = Duration.ofMillis(400);
    /** The overview is read again this often even when the store did not change: its runner may have gone. */
    private static final Duration OVERVIEW_EVERY = Duration.ofSeconds(3);
    /**
     * Between two changes only the new trials and those that had not ended are read again; every trial is,
     * this often, in case an ended one changed (a metric read late from a machine that came back).
     */
    private static final Duration ALL_EVERY = Duration.ofSeconds(30);

    private final ExperimentReader reader;
    private long lookedAt = Long.MIN_VALUE;
    private long overviewAt = Long.MIN_VALUE;
    private long changeCount = Long.MIN_VALUE;
    private long allAt = Long.MIN_VALUE;
    private long revision;
    private ExperimentReader.Overview overview;
    private long overviewRevision;
    private final Map<String, Stamped> trials = new LinkedHashMap<>();
    private List<String> front = List.of();
    private long frontRevision;

    private record Stamped(ExperimentReader.Trial trial, long revision) {}

    ExperimentFeed(ExperimentReader reader) {
        this.reader = reader;
    }

    ExperimentReader reader() {
        return reader;
    }

    /** What changed after revision {@code seen} (everything when it is 0 or from another feed), as JSON values. */
    synchronized Map<String, Object> since(long seen) {
        look();
        if (seen > revision) {
            seen = 0; // the server restarted: send everything
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("revision", revision);
        if (seen == revision) {
            return out;
        }
        out.put("full", seen == 0);
        if (overviewRevision > seen) {
            out.put("overview", Views.overview(overview));
        }
        List<Object> changed = new ArrayList<>();
        for (Stamped s : trials.values()) {
            if (s.revision > seen) {
                changed.add(Views.trial(s.trial));
            }
        }
        out.put("trials", changed);
        if (frontRevision > seen) {
            out.put("front", front);
        }
        return out;
    }

    /** The overview as last read. */
    synchronized ExperimentReader.Overview overview() {
        look();
        return overview;
    }

    /** The trials as last read, in order of sequence. */
    synchronized List<ExperimentReader.Trial> trials() {
        look();
        return trials.values().stream().map(Stamped::trial).toList();
    }

    private void look() {
        long now = System.nanoTime();
        if (overview != null && now - lookedAt < LOOK_EVERY.toNanos()) {
            return;
        }
        lookedAt = now;
        long count = reader.changeCount();
        boolean changed = count != changeCount;
        if (changed || overview == null || now - overviewAt > OVERVIEW_EVERY.toNanos()) {
            overviewAt = now;
            ExperimentReader.Overview o = reader.overview();
            if (!o.equals(overview)) {
                overview = o;
                overviewRevision = ++revision;
            }
        }
        if (!changed) {
            return;
        }
        changeCount = count;
        long next = revision + 1;
        boolean any = false;
        List<ExperimentReader.Trial> read;
        if (trials.isEmpty() || now - allAt > ALL_EVERY.toNanos()) {
            allAt = now;
            read = reader.trials();
        } else {
            int seen = -1;
            List<String> open = new ArrayList<>();
            for (Stamped s : trials.values()) {
                seen = Math.max(seen, s.trial.sequence());
                if (!s.trial.status().ended()) {
                    open.add(s.trial.jobId());
                }
            }
            read = reader.trials(seen, open);
        }
        for (ExperimentReader.Trial t : read) {
            Stamped old = trials.get(t.jobId());
            if (old == null || !old.trial.equals(t)) {
                trials.put(t.jobId(), new Stamped(t, next));
                any = true;
            }
        }
        if (any) {
            revision = next;
            List<String> f = paretoFront();
            if (!f.equals(front)) {
                front = f;
                frontRevision = revision;
            }
        }
    }

    /** The job ids of the Pareto front's trials, for an experiment with several objectives. */
    private List<String> paretoFront() {
        if (overview.objectives().size() < 2) {
            return List.of();
        }
        List<TrialRecord> records = new ArrayList<>();
        for (Stamped s : trials.values()) {
            records.add(s.trial.record());
        }
        ExperimentResults r = new ExperimentResults(overview.id(), overview.name(), overview.maximize(), overview.started(), overview.ended(),
                overview.status(), records, overview.objectives());
        Optional<ParetoFront> f = ParetoFront.of(r);
        return f.map(p -> p.trials().stream().map(TrialRecord::trialJobId).toList()).orElse(List.of());
    }

    @Override
    public synchronized void close() {
        reader.close();
    }
}
