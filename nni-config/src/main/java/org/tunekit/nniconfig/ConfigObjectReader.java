package org.tunekit.nniconfig;

import static org.tunekit.nniconfig.ConfigValues.describe;
import static org.tunekit.nniconfig.ConfigValues.join;
import static org.tunekit.nniconfig.ConfigValues.valueOf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.nniconfig.ConfigSchema.Field;
import org.tunekit.nniconfig.ConfigSchema.Schema;

/**
 * Reads a parsed config into config objects by NNI's schema, as NNI's dataclasses are constructed:
 * keys match ignoring case and underscores, an unknown key is refused with the nearest known one, and
 * a training service takes its schema from its {@code platform}. Values are not checked here.
 */
final class ConfigObjectReader {
    private ConfigObjectReader() {
    }

    /**
     * The config object of {@code schema} from its raw mapping, its fields at their defaults where the
     * mapping leaves them out, and the nested objects built the same way.
     *
     * @throws ConfigException naming an unknown key (with the nearest known one), a key given twice, or
     *                         a training service without a known platform
     */
    static ConfigObject construct(Schema schema, Map<?, ?> raw, String path) {
        ConfigObject node = new ConfigObject(schema, path);
        for (Field f : schema.fields()) {
            node.set(f.name(), f.def());
        }
        Map<String, String> given = new HashMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new ConfigException(path, "keys must be strings, got " + describe(e.getKey()));
            }
            Field f = schema.field(key);
            if (f == null) {
                throw new ConfigException(join(path, key), "unknown key" + suggestion(key, schema) + "; the keys of "
                        + what(schema, path) + " are " + String.join(", ", schema.fields().stream().map(Field::name).toList()));
            }
            String before = given.put(f.name(), key);
            if (before != null) {
                throw new ConfigException(join(path, key), "given twice, as '" + before + "' and '" + key
                        + "' (NNI ignores case and underscores in keys)");
            }
            node.set(f.name(), build(f, e.getValue(), join(path, f.name())));
        }
        return node;
    }

    private static Object build(Field f, Object v, String path) {
        switch (f.kind()) {
            case CONFIG -> {
                return v instanceof Map<?, ?> m ? construct(f.nested(), m, path) : v;
            }
            case CONFIG_LIST -> {
                if (v instanceof List<?> l && l.stream().allMatch(i -> i instanceof Map)) {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < l.size(); i++) {
                        out.add(construct(f.nested(), (Map<?, ?>) l.get(i), path + "[" + i + "]"));
                    }
                    return out;
                }
                return v;
            }
            case TRAINING_SERVICE -> {
                if (v instanceof Map<?, ?> m) {
                    return trainingService(m, path);
                }
                if (v instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(i -> i instanceof Map)) {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < l.size(); i++) {
                        out.add(trainingService((Map<?, ?>) l.get(i), path + "[" + i + "]"));
                    }
                    return out;
                }
                return v;
            }
            default -> {
                return v;
            }
        }
    }

    private static ConfigObject trainingService(Map<?, ?> raw, String path) {
        Object platform = valueOf(raw, "platform");
        String names = String.join(", ", ConfigSchema.TRAINING_SERVICES.keySet().stream().sorted().toList());
        if (platform == null) {
            throw new ConfigException(join(path, "platform"), "required: where trials run (" + names + "); 'local' is this machine");
        }
        Schema schema = platform instanceof String p ? ConfigSchema.TRAINING_SERVICES.get(p) : null;
        if (schema == null) {
            throw new ConfigException(join(path, "platform"), "unknown training service " + describe(platform)
                    + "; NNI's are " + names);
        }
        return construct(schema, raw, path);
    }

    private static String what(Schema schema, String path) {
        return path.isEmpty() ? "an experiment config" : "'" + path + "' (" + schema.className() + ")";
    }

    private static String suggestion(String key, Schema schema) {
        String k = ConfigSchema.normalize(key);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Field f : schema.fields()) {
            int d = distance(k, f.key());
            if (d < bestDistance) {
                bestDistance = d;
                best = f.name();
            }
        }
        return best != null && bestDistance <= Math.max(2, k.length() / 4) ? " (did you mean '" + best + "'?)" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
