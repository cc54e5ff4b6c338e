package org.tunekit.dispatcher.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;

/**
 * The JSON shapes of payloads: strict reading of what the manager sends, and writing of replies.
 * Errors name the command and the field.
 */
public final class Payloads {
    private Payloads() {}

    /** A payload read into its record: what a manager in the same process posts instead of text ({@link Command#data}). */
    public sealed interface Data permits MetricData, TrialEndData {}

    /** A parsed {@code ME} payload; {@code metric} is {@code null} for {@code REQUEST_PARAMETER}. */
    public record MetricData(Long parameterId, String trialJobId, MetricReport.Type type, int sequence,
                             Metric metric, int parameterIndex) implements Data {
        /** As the SDK's advisor-facing type. */
        public MetricReport toReport() {
            return new MetricReport(parameterId, trialJobId, type, sequence, metric, parameterIndex);
        }
    }

    /** A parsed {@code EN} payload; {@code parameterId} from {@code hyper_params}, or {@code null}. */
    public record TrialEndData(String trialJobId, String event, Long parameterId) implements Data {
        /** True when the event is {@code SUCCEEDED}. */
        public boolean succeeded() {
            return "SUCCEEDED".equals(event);
        }
    }

    /** The search space of {@code IN} or {@code SS}: a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> searchSpace(Command c) throws ProtocolException {
        Object v = JsonCodec.parse(c.payload(), c.type().code() + " payload");
        if (!(v instanceof Map)) {
            throw new ProtocolException(c.type().code() + " payload must be a JSON object (the search space), got " + kind(v));
        }
        return (Map<String, Object>) v;
    }

    /** The count of {@code GE}: a non-negative integer. */
    public static int trialCount(Command c) throws ProtocolException {
        String p = c.payload().trim();
        Object v;
        try {
            v = JsonCodec.parse(p, "GE payload");
        } catch (ProtocolException e) {
            throw new ProtocolException("GE payload must be a non-negative integer, got \"" + abbreviate(c.payload()) + "\"");
        }
        if (!(v instanceof Long n) || n < 0 || n > 1_000_000) {
            throw new ProtocolException("GE payload must be a non-negative integer (at most 1000000), got \"" + abbreviate(c.payload()) + "\"");
        }
        return (int) (long) n;
    }

    /** Reads an {@code ME} payload; one posted as a record ({@link Command#of(MetricData)}) is taken as it is. */
    public static MetricData metric(Command c) throws ProtocolException {
        if (c.data() instanceof MetricData m) {
            return m;
        }
        Map<String, Object> m = object(c, "ME");
        return metric(m, string(m, "trial_job_id", "ME", true), null);
    }

    /**
     * Reads the fields of an {@code ME} text that a trial reported (through its metrics file, its output or
     * NNI's HTTP trial channel) as {@link #metric(Command)} reads an {@code ME} payload, except that the
     * trial is the one its channel names ({@code trial_job_id} in the text is ignored) and a missing or
     * {@code null} {@code parameter_id} is the trial's.
     *
     * @param fields      the text's JSON object
     * @param trialJobId  the trial whose channel the text came through
     * @param parameterId the trial's parameter id
     */
    public static MetricData trialMetric(Map<String, Object> fields, String trialJobId, long parameterId) throws ProtocolException {
        return metric(fields, Objects.requireNonNull(trialJobId, "trialJobId"), parameterId);
    }

    private static MetricData metric(Map<String, Object> m, String trialJobId, Long trialsParameterId) throws ProtocolException {
        String typeName = string(m, "type", "ME", true);
        MetricReport.Type type;
        try {
            type = MetricReport.Type.valueOf(typeName);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("ME field \"type\" must be FINAL, PERIODICAL or REQUEST_PARAMETER, got \"" + typeName + "\"");
        }
        if (trialsParameterId == null && type != MetricReport.Type.REQUEST_PARAMETER && !m.containsKey("parameter_id")) {
            throw new ProtocolException("ME " + type + " payload needs \"parameter_id\" (an integer, or null for a trial the"
                    + " dispatcher did not create)");
        }
        Long parameterId = optionalLong(m, "parameter_id", "ME");
        if (parameterId == null) {
            parameterId = trialsParameterId;
        }
        int sequence = index(optionalLong(m, "sequence", "ME"), "ME field \"sequence\"");
        int parameterIndex = index(optionalLong(m, "parameter_index", "ME"), "ME field \"parameter_index\"");
        Metric metric = null;
        if (type != MetricReport.Type.REQUEST_PARAMETER) {
            if (!m.containsKey("value")) {
                throw new ProtocolException("ME " + type + " payload has no \"value\"");
            }
            Object raw = m.get("value");
            Object reported = raw instanceof String s ? metricText(s, "ME value") : raw;
            metric = toMetric(reported, "ME value");
        }
        return new MetricData(parameterId, trialJobId, type, sequence, metric, parameterIndex);
    }

    /** Reads an {@code EN} payload; one posted as a record ({@link Command#of(TrialEndData)}) is taken as it is. */
    public static TrialEndData trialEnd(Command c) throws ProtocolException {
        if (c.data() instanceof TrialEndData end) {
            return end;
        }
        Map<String, Object> m = object(c, "EN");
        String trialJobId = string(m, "trial_job_id", "EN", true);
        String event = string(m, "event", "EN", true);
        Long parameterId = null;
        Object hp = m.get("hyper_params");
        if (hp instanceof String s && !s.isEmpty()) {
            Object rec = JsonCodec.parse(s, "EN hyper_params");
            if (rec instanceof Map<?, ?> r) {
                parameterId = longOrNull(r.get("parameter_id"), "EN hyper_params.parameter_id");
            } else {
                throw new ProtocolException("EN hyper_params must be the JSON text of a parameter record (an object), got " + kind(rec));
            }
        } else if (hp instanceof Map<?, ?> r) {
            parameterId = longOrNull(r.get("parameter_id"), "EN hyper_params.parameter_id");
        } else if (hp != null && !(hp instanceof String)) {
            throw new ProtocolException("EN hyper_params must be a string holding a parameter record, got " + kind(hp));
        }
        return new TrialEndData(trialJobId, event, parameterId);
    }

    /** Reads an {@code FD} payload: a list of {@code {"parameter": {...}, "value": ...}} records. */
    public static List<ImportedTrial> importData(Command c) throws ProtocolException {
        Object v = JsonCodec.parse(c.payload(), "FD payload");
        if (!(v instanceof List<?> list)) {
            throw new ProtocolException("FD payload must be a JSON list of {\"parameter\": ..., \"value\": ...} records, got " + kind(v));
        }
        List<ImportedTrial> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object o = list.get(i);
            String where = "FD record " + i;
            if (!(o instanceof Map<?, ?> rec)) {
                throw new ProtocolException(where + " must be an object, got " + kind(o));
            }
            if (!(rec.get("parameter") instanceof Map<?, ?> params)) {
                throw new ProtocolException(where + " needs a \"parameter\" object, got " + kind(rec.get("parameter")));
            }
            if (!rec.containsKey("value")) {
                throw new ProtocolException(where + " has no \"value\"");
            }
            Object value = rec.get("value");
            Object reported = value instanceof String s ? metricText(s, where + " value") : value;
            Map<String, Object> extra = new LinkedHashMap<>();
            rec.forEach((k, x) -> {
                if (!"parameter".equals(k) && !"value".equals(k)) {
                    extra.put((String) k, x);
                }
            });
            @SuppressWarnings("unchecked")
            Map<String, Object> p = (Map<String, Object>) params;
            out.add(new ImportedTrial(Parameters.of(p), toMetric(reported, where + " value"), extra));
        }
        return out;
    }

    /**
     * Reads an {@code AD} payload: one parameter record or a list of them. A record without a
     * {@code parameter_id} (or a bare parameter object) has a {@code null} id.
     */
    public static List<ParameterRecord> customizedTrials(Command c) throws ProtocolException {
        Object v = JsonCodec.parse(c.payload(), "AD payload");
        // a single record need not be in a list; List.of would throw on the JSON null
        List<?> items = v instanceof List<?> l ? l : java.util.Collections.singletonList(v);
        List<ParameterRecord> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object o = items.get(i);
            if (!(o instanceof Map<?, ?> rec)) {
                throw new ProtocolException("AD record " + i + " must be an object, got " + kind(o));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> r = (Map<String, Object>) rec;
            if (r.containsKey("parameters") || r.containsKey("parameter_id")) {
                if (!(r.get("parameters") instanceof Map<?, ?> params)) {
                    throw new ProtocolException("AD record " + i + " needs a \"parameters\" object, got " + kind(r.get("parameters")));
                }
                Long id = longOrNull(r.get("parameter_id"), "AD record " + i + " parameter_id");
                if (id != null && (id < 0 || id == Long.MAX_VALUE)) {
                    // the id counter continues after the largest id seen: it must stay a valid id
                    throw new ProtocolException("AD record " + i + " parameter_id must be an integer from 0 to "
                            + (Long.MAX_VALUE - 1) + ", got " + id);
                }
                Object src = r.get("parameter_source");
                @SuppressWarnings("unchecked")
                Map<String, Object> p = (Map<String, Object>) params;
                out.add(new ParameterRecord(id, src instanceof String s ? s : "customized", Parameters.of(p)));
            } else {
                out.add(new ParameterRecord(null, "customized", Parameters.of(r)));
            }
        }
        return out;
    }

    /** A {@code TR} or {@code NO} payload: a parameter record ({@code parameters} is {@code ""} for NO). */
    public static String parameterRecord(long parameterId, Object parameters) {
        StringBuilder sb = new StringBuilder(128);
        sb.append("{\"parameter_id\": ").append(parameterId).append(", \"parameter_source\": \"algorithm\", \"parameters\": ");
        JsonCodec.write(parameters, sb);
        sb.append(", \"parameter_index\": 0}");
        return sb.toString();
    }

    /** An {@code SP} payload; {@code parameters} may be {@code null}. */
    public static String trialParameterRecord(long parameterId, Object parameters, String trialJobId, int parameterIndex) {
        StringBuilder sb = new StringBuilder(128);
        sb.append("{\"parameter_id\": ").append(parameterId).append(", \"parameter_source\": \"algorithm\", \"parameters\": ");
        JsonCodec.write(parameters, sb);
        sb.append(", \"trial_job_id\": ");
        JsonCodec.writeString(trialJobId, sb);
        sb.append(", \"parameter_index\": ").append(parameterIndex).append('}');
        return sb.toString();
    }

    /** A {@code KI} payload: the trial job id as a JSON string. */
    public static String killTrial(String trialJobId) {
        StringBuilder sb = new StringBuilder(trialJobId.length() + 2);
        JsonCodec.writeString(trialJobId, sb);
        return sb.toString();
    }

    /** A metric's JSON text; {@code NaN}, {@code Infinity} and {@code -Infinity} are read as those numbers. */
    public static Object metricText(String text, String what) throws ProtocolException {
        switch (text.trim()) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                return JsonCodec.parse(text, what);
        }
    }

    private static Metric toMetric(Object reported, String what) throws ProtocolException {
        try {
            return Metric.fromReported(reported);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(what + ": " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Command c, String code) throws ProtocolException {
        Object v = JsonCodec.parse(c.payload(), code + " payload");
        if (!(v instanceof Map)) {
            throw new ProtocolException(code + " payload must be a JSON object, got " + kind(v));
        }
        return (Map<String, Object>) v;
    }

    private static String string(Map<String, Object> m, String key, String code, boolean required) throws ProtocolException {
        Object v = m.get(key);
        if (v instanceof String s) {
            return s;
        }
        if (v == null && !required) {
            return null;
        }
        throw new ProtocolException(code + " payload needs a string \"" + key + "\", got " + (m.containsKey(key) ? kind(v) : "nothing"));
    }

    private static Long optionalLong(Map<String, Object> m, String key, String code) throws ProtocolException {
        return longOrNull(m.get(key), code + " field \"" + key + "\"");
    }

    private static Long longOrNull(Object v, String what) throws ProtocolException {
        if (v == null) {
            return null;
        }
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d && d == Math.rint(d)) {
            return d.longValue();
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        throw new ProtocolException(what + " must be an integer, got " + kind(v));
    }

    /** A position counted from 0: absent is 0; negative, or beyond what an int holds, is an error. */
    private static int index(Long v, String what) throws ProtocolException {
        if (v == null) {
            return 0;
        }
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new ProtocolException(what + " must be an integer from 0 to " + Integer.MAX_VALUE + ", got " + v);
        }
        return (int) (long) v;
    }

    private static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Map) {
            return "an object";
        }
        if (v instanceof List) {
            return "a list";
        }
        return JsonValues.describe(v);
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
