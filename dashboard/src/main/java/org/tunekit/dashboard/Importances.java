package org.tunekit.dashboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.runner.ExperimentReader;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.Importance;
import org.tunekit.runner.results.TrialRecord;

/**
 * Each parameter's importance to the final value ({@link Importance}: fANOVA over a random forest), for
 * the trials that have one. Computed again only when a trial has ended since the last time, so that
 * pages asking for it over and over cost nothing more.
 */
final class Importances {
    /** The same forest for the same trials: a fixed seed. */
    static final long SEED = 0;
    /** Fewer ranked trials than this tell nothing. */
    static final int AT_LEAST = 8;

    private final Map<ExperimentFeed, Computed> cache = new java.util.WeakHashMap<>();

    private record Computed(int trials, Map<String, Object> answer) {}

    synchronized Map<String, Object> of(ExperimentFeed feed) {
        ExperimentReader.Overview o = feed.overview();
        List<TrialRecord> ranked = feed.trials().stream()
                .filter(t -> t.status().ranked() && t.value() != null && Double.isFinite(t.value()))
                .map(ExperimentReader.Trial::record)
                .toList();
        Computed c = cache.get(feed);
        if (c != null && c.trials == ranked.size()) {
            return c.answer;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("trials", ranked.size());
        answer.put("method", "fANOVA (random forest)");
        if (ranked.size() < AT_LEAST) {
            answer.put("importance", Map.of());
            answer.put("note", "importance needs at least " + AT_LEAST + " trials with a final value; " + ranked.size() + " so far");
        } else {
            ExperimentResults r = new ExperimentResults(o.id(), o.name(), o.maximize(), o.started(), o.ended(), o.status(), ranked, o.objectives());
            answer.put("importance", Importance.of(r, o.searchSpace(), SEED));
        }
        cache.put(feed, new Computed(ranked.size(), answer));
        return answer;
    }
}
