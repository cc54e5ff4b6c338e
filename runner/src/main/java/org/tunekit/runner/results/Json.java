package org.tunekit.runner.results;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.ToNumberPolicy;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The results as JSON: the records' components by name, map entries by key, times as ISO-8601 text, numbers that are not finite
 * (NaN, infinities, which JSON cannot hold) as {@code null}. Reading back gives equal results, but that a final
 * value that was not finite reads as absent and an intermediate value that was not finite reads as NaN (a
 * parameter that was not finite cannot be read back: a record holds no null parameter); whole numbers in
 * parameters and metrics read as Long, others as Double.
 */
final class Json {
    static final String FILE = "experiment.json";

    private static final Gson GSON = new GsonBuilder()
            .registerTypeAdapter(Instant.class, new InstantAdapter().nullSafe())
            .registerTypeAdapter(Double.class, new FiniteDoubleAdapter())
            .registerTypeAdapter(TypeToken.getParameterized(List.class, Double.class).getType(), new CurveAdapter())
            .registerTypeAdapterFactory(new KeyOrderFactory())
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .serializeNulls()
            .setPrettyPrinting()
            .disableHtmlEscaping()
            .create();

    private Json() {
    }

    static void write(ExperimentResults r, Path file) throws IOException {
        AtomicFiles.write(file, out -> {
            GSON.toJson(tree(r), out);
            out.write('\n');
        });
    }

    /**
     * The results as a JSON tree; with objectives, a {@code pareto} object is added: {@code reference} (objective
     * to value), {@code referenceFrom} (objective to {@code config} or {@code front}: the front's worst value plus
     * 10% of its range), {@code hypervolume}, {@code trials} (the front's trial job ids, in the front's order),
     * {@code counted} (trials with every objective's value) and {@code lacking} (final metrics without one).
     */
    private static JsonObject tree(ExperimentResults r) {
        JsonObject o = GSON.toJsonTree(r, ExperimentResults.class).getAsJsonObject();
        ParetoFront.of(r).ifPresent(front -> {
            JsonObject p = new JsonObject();
            JsonObject reference = new JsonObject();
            JsonObject from = new JsonObject();
            for (int k = 0; k < front.objectives().size(); k++) {
                String metric = front.objectives().get(k).metric();
                reference.addProperty(metric, front.reference()[k]);
                from.addProperty(metric, front.fromConfig()[k] ? "config" : "front");
            }
            p.add("reference", reference);
            p.add("referenceFrom", from);
            p.addProperty("hypervolume", front.hypervolume());
            com.google.gson.JsonArray trials = new com.google.gson.JsonArray();
            front.trials().forEach(t -> trials.add(t.trialJobId()));
            p.add("trials", trials);
            p.addProperty("counted", front.counted());
            p.addProperty("lacking", front.lacking());
            o.add("pareto", p);
        });
        return o;
    }

    static String toJson(ExperimentResults r) {
        return GSON.toJson(tree(r));
    }

    static ExperimentResults read(Reader in) {
        return GSON.fromJson(in, ExperimentResults.class);
    }

    /**
     * Maps with text keys written by key: parameter maps are unordered ({@code Map.copyOf}, whose order changes
     * from one run of the JVM to the next), and the same results should give the same file.
     */
    private static final class KeyOrderFactory implements TypeAdapterFactory {
        @Override
        public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
            if (!Map.class.isAssignableFrom(type.getRawType())) {
                return null;
            }
            TypeAdapter<T> delegate = gson.getDelegateAdapter(this, type);
            return new TypeAdapter<>() {
                @Override
                @SuppressWarnings("unchecked")
                public void write(JsonWriter out, T value) throws IOException {
                    if (value instanceof Map<?, ?> m && m.keySet().stream().allMatch(k -> k instanceof String)) {
                        delegate.write(out, (T) new TreeMap<>(m));
                    } else {
                        delegate.write(out, value);
                    }
                }

                @Override
                public T read(JsonReader in) throws IOException {
                    return delegate.read(in);
                }
            };
        }
    }

    private static final class InstantAdapter extends TypeAdapter<Instant> {
        @Override
        public void write(JsonWriter out, Instant value) throws IOException {
            out.value(value.toString());
        }

        @Override
        public Instant read(JsonReader in) throws IOException {
            return Instant.parse(in.nextString());
        }
    }

    private static final class FiniteDoubleAdapter extends TypeAdapter<Double> {
        @Override
        public void write(JsonWriter out, Double value) throws IOException {
            if (value == null || !Double.isFinite(value)) {
                out.nullValue();
            } else {
                out.value(value.doubleValue());
            }
        }

        @Override
        public Double read(JsonReader in) throws IOException {
            if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return null;
            }
            return in.nextDouble();
        }
    }

    /** A list of numbers, each not finite as null, each null read back as NaN (the list holds no nulls). */
    private static final class CurveAdapter extends TypeAdapter<List<Double>> {
        private final FiniteDoubleAdapter element = new FiniteDoubleAdapter();

        @Override
        public void write(JsonWriter out, List<Double> values) throws IOException {
            if (values == null) {
                out.nullValue();
                return;
            }
            out.beginArray();
            for (Double v : values) {
                element.write(out, v);
            }
            out.endArray();
        }

        @Override
        public List<Double> read(JsonReader in) throws IOException {
            if (in.peek() == JsonToken.NULL) {
                in.nextNull();
                return null;
            }
            List<Double> values = new ArrayList<>();
            in.beginArray();
            while (in.hasNext()) {
                Double v = element.read(in);
                values.add(v == null ? Double.NaN : v);
            }
            in.endArray();
            return values;
        }
    }
}
