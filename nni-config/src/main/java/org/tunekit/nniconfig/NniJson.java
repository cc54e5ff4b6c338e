package org.tunekit.nniconfig;

import static org.tunekit.nniconfig.ConfigValues.join;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.nniconfig.ConfigSchema.Field;

/**
 * A config's objects as the JSON nnictl posts: every field in its schema's order, {@code null}s left
 * out, values as Python's json module writes them; a value JSON cannot hold is refused with its path.
 */
final class NniJson {
    private NniJson() {
    }

    /** A value as Python's {@code json.dumps} would write it after NNI's {@code json()}. */
    static Object toJson(Object v, String path) {
        if (v instanceof ConfigObject n) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Field f : n.schema.fields()) {
                Object value = n.get(f.name());
                if (value != null) {
                    out.put(f.name(), toJson(value, n.pathOf(f.name())));
                }
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = jsonKey(e.getKey(), path);
                out.put(key, toJson(e.getValue(), join(path, key)));
            }
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>();
            int i = 0;
            for (Object item : c) {
                out.add(toJson(item, path + "[" + i++ + "]"));
            }
            return out;
        }
        if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            throw new ConfigException(path, d + " cannot be sent to NNI's manager (JSON has no such number)");
        }
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Number) {
            return v;
        }
        throw new ConfigException(path, "a " + v.getClass().getSimpleName() + " value cannot be written as JSON");
    }

    /** How Python's json module writes a mapping key. */
    private static String jsonKey(Object k, String path) {
        if (k instanceof String s) {
            return s;
        }
        if (k == null) {
            return "null";
        }
        if (k instanceof Boolean || k instanceof Number) {
            return String.valueOf(k);
        }
        throw new ConfigException(path, "a key of type " + k.getClass().getSimpleName() + " cannot be written as JSON");
    }

}
