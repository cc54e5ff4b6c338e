package org.tunekit.nniconfig;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tunekit.nniconfig.ConfigSchema.Schema;

/**
 * One config object, an instance of one of NNI's config dataclasses: its schema, its values by field
 * (in the schema's order) and, for a value copied from elsewhere (a top-level shortcut copied into the
 * training service), the path to name in messages.
 */
final class ConfigObject {
    final Schema schema;
    final String path;
    final Map<String, Object> values = new LinkedHashMap<>();
    /** Fields whose value came from elsewhere (the top-level shortcuts): the path to name in messages. */
    final Map<String, String> sources = new HashMap<>();

    ConfigObject(Schema schema, String path) {
        this.schema = schema;
        this.path = path;
    }

    Object get(String field) {
        return values.get(field);
    }

    void set(String field, Object value) {
        values.put(field, value);
    }

    String pathOf(String field) {
        return sources.getOrDefault(field, ConfigValues.join(path, field));
    }
}
