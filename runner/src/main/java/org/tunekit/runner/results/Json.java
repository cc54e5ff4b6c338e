package org.tunekit.runner.results;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.ToNumberPolicy;
import com.google.gson.TypeAdapter;
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

/**
 * The results as JSON: the records' components by name, times as ISO-8601 text, numbers that are not finite
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
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .serializeNulls()
            .setPrettyPrinting()
            .disableHtmlEscaping()
            .create();

    private Json() {
    }

    static void write(ExperimentResults r, Path file) throws IOException {
        AtomicFiles.write(file, out -> {
            GSON.toJson(r, ExperimentResults.class, out);
            out.write('\n');
        });
    }

    static String toJson(ExperimentResults r) {
        return GSON.toJson(r, ExperimentResults.class);
    }

    static ExperimentResults read(Reader in) {
        return GSON.fromJson(in, ExperimentResults.class);
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
