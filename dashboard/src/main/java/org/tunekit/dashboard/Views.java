package org.tunekit.dashboard;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.runner.ExperimentReader;

/**
 * The JSON the pages read: plain maps and lists of what the store holds. Times are epoch milliseconds;
 * a number that is not finite (a trial may report NaN) is sent as its name in a string, which JSON can
 * carry and the page shows as it is.
 */
final class Views {
    private Views() {}

    static Map<String, Object> overview(ExperimentReader.Overview o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", o.id());
        m.put("name", o.name());
        m.put("status", o.status());
        m.put("running", o.running());
        m.put("maximize", o.maximize());
        m.put("started", millis(o.started()));
        m.put("ended", millis(o.ended()));
        m.put("trialConcurrency", o.trialConcurrency());
        m.put("maxTrialNumber", o.maxTrialNumber());
        m.put("maxExperimentDuration", o.maxExperimentDuration() == null ? null : o.maxExperimentDuration().toSeconds());
        m.put("tuner", o.tuner());
        m.put("objectives", o.objectives());
        m.put("searchSpace", o.searchSpace());
        m.put("config", o.config());
        return m;
    }

    static Map<String, Object> trial(ExperimentReader.Trial t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", t.sequence());
        m.put("job", t.jobId());
        m.put("pid", t.parameterId());
        m.put("params", t.parameters());
        m.put("status", t.status().name());
        m.put("value", number(t.value()));
        m.put("metric", plain(t.metric()));
        m.put("start", millis(t.started()));
        m.put("end", millis(t.ended()));
        m.put("exit", t.exitCode());
        m.put("message", t.message());
        m.put("machine", t.machine());
        m.put("gpus", t.gpus());
        m.put("steps", t.intermediateCount());
        m.put("last", number(t.lastIntermediate()));
        return m;
    }

    static Map<String, Object> metric(ExperimentReader.Metric x) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", x.type());
        m.put("seq", x.sequence());
        m.put("value", plain(x.value()));
        m.put("number", number(x.number()));
        m.put("at", millis(x.at()));
        return m;
    }

    static Map<String, Object> event(ExperimentReader.Event e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", millis(e.at()));
        m.put("kind", e.kind());
        m.put("job", e.jobId());
        m.put("text", e.text());
        return m;
    }

    static Map<String, Object> request(ExperimentReader.Request r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("kind", r.kind());
        m.put("payload", r.payload());
        m.put("state", r.state());
        m.put("answer", r.answer());
        return m;
    }

    static Long millis(Instant i) {
        return i == null ? null : i.toEpochMilli();
    }

    static Object number(Double d) {
        return d == null ? null : Double.isFinite(d) ? d : d.toString();
    }

    /** A value from a trial, its non-finite numbers as strings. */
    static Object plain(Object v) {
        if (v instanceof Double d) {
            return number(d);
        }
        if (v instanceof Float f) {
            return number(f.doubleValue());
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
            return out;
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(x -> out.add(plain(x)));
            return out;
        }
        return v;
    }
}
