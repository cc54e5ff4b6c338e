package org.tunekit.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schemas of {@code schemas/} against themselves, against the 2020-12 meta-schema, and
 * against the conformance vectors: every payload a vector sends or expects fits the schema of its
 * command, and the payloads of the vectors that exist to be rejected for their shape do not.
 */
class SchemaConformanceTest {
    static final Path HOME = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
    static final Path SCHEMAS = HOME.resolve("schemas");
    static final Path VECTORS = HOME.resolve("vectors");
    static final ObjectMapper JSON = new ObjectMapper();

    /** The schema file of each command whose payload is JSON. */
    static final Map<String, String> SCHEMA_OF_CODE = Map.ofEntries(
            Map.entry("IN", "search-space"),
            Map.entry("SS", "search-space"),
            Map.entry("GE", "request-trial-jobs"),
            Map.entry("ME", "metric-data"),
            Map.entry("EN", "trial-end"),
            Map.entry("FD", "import-data"),
            Map.entry("AD", "add-customized-trial-job"),
            Map.entry("TR", "new-trial-job"),
            Map.entry("NO", "no-more-trial-jobs"),
            Map.entry("SP", "send-trial-job-parameter"),
            Map.entry("KI", "kill-trial-job"));
    /** Commands whose payload is empty. */
    static final Set<String> EMPTY_PAYLOAD = Set.of("TE", "PI", "ID");

    /** Vectors whose last command (before TE) is refused by the dispatcher for its shape, which the schema must refuse too. */
    static final List<String> REFUSED_FOR_SHAPE = List.of(
            "payload_search_space_not_object", "payload_ge_not_integer", "payload_ge_negative", "payload_ge_fraction",
            "payload_me_missing_parameter_id", "payload_me_missing_trial_job_id", "payload_me_unknown_type",
            "payload_me_missing_value", "payload_en_missing_event", "payload_fd_not_a_list",
            "payload_fd_record_without_parameter", "payload_ad_record_not_object", "search_space_wrong_arity",
            "payload_me_negative_sequence", "payload_me_sequence_too_large", "payload_ad_negative_parameter_id");

    static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    static final Map<String, JsonSchema> SCHEMAS_BY_NAME = new TreeMap<>();

    @BeforeAll
    static void loadSchemas() throws IOException {
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".schema.json")).sorted().toList()) {
                JsonNode node = JSON.readTree(p.toFile());
                SCHEMAS_BY_NAME.put(p.getFileName().toString().replace(".schema.json", ""), FACTORY.getSchema(node));
            }
        }
    }

    @Test
    void everySchemaIsJsonAndFitsTheDraft2020MetaSchema() throws IOException {
        JsonSchema meta = FACTORY.getSchema(SchemaLocation.of(SchemaId.V202012));
        List<Path> files;
        try (Stream<Path> s = Files.list(SCHEMAS)) {
            files = s.sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path p : files) {
            assertThat(p.getFileName().toString()).as("file names in schemas/").endsWith(".schema.json");
            JsonNode node = JSON.readTree(p.toFile());
            assertThat(node.path("$schema").asText()).as(p + " $schema").isEqualTo("https://json-schema.org/draft/2020-12/schema");
            assertThat(node.path("title").asText()).as(p + " title").isNotBlank();
            assertThat(meta.validate(node)).as(p + " against the 2020-12 meta-schema").isEmpty();
        }
    }

    @Test
    void everyJsonPayloadHasASchema() {
        assertThat(SCHEMAS_BY_NAME.keySet()).containsAll(SCHEMA_OF_CODE.values())
                .contains("websocket-envelope", "experiment-config");
    }

    @Test
    void everyVectorPayloadFitsItsSchema() throws IOException {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Path p : vectorFiles()) {
            JsonNode v = JSON.readTree(p.toFile());
            String name = v.path("name").asText();
            boolean error = "error".equals(v.path("outcome").asText());
            if (!error) {
                checked += check(name + " config", "experiment-config", v.get("config"), problems);
                for (JsonNode c : v.path("input")) {
                    checked += checkCommand(name + " input", c.get(0).asText(), c.get(1).asText(), problems);
                }
            }
            for (JsonNode c : v.path("expected")) {
                checked += checkCommand(name + " expected", c.get(0).asText(), c.get(1).asText(), problems);
            }
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("payloads checked").isGreaterThan(100);
    }

    @Test
    void payloadsRefusedForTheirShapeDoNotFitTheirSchema() throws IOException {
        for (String name : REFUSED_FOR_SHAPE) {
            JsonNode v = JSON.readTree(VECTORS.resolve(name + ".json").toFile());
            assertThat(v.path("outcome").asText()).as(name + " outcome").isEqualTo("error");
            JsonNode last = null;
            for (JsonNode c : v.path("input")) {
                if (!c.get(0).asText().equals("TE")) {
                    last = c;
                }
            }
            assertThat(last).as(name + " input").isNotNull();
            String schema = SCHEMA_OF_CODE.get(last.get(0).asText());
            assertThat(errors(schema, last.get(1).asText())).as(name + ": " + last + " against " + schema).isNotEmpty();
        }
    }

    @Test
    void schemasRefuseMalformedPayloads() {
        Map<String, List<String>> bad = Map.of(
                "search-space", List.of("{\"lr\": {\"_type\": \"uniform\", \"_value\": [1]}}",
                        "{\"lr\": {\"_type\": \"gaussian\", \"_value\": [0, 1]}}",
                        "{\"m\": {\"_type\": \"choice\", \"_value\": [{\"_name\": \"a\", \"d\": {\"_type\": \"randint\"}}]}}",
                        "{\"x\": {\"_type\": \"choice\", \"_value\": []}}"),
                "new-trial-job", List.of("{\"parameter_id\": 0, \"parameter_source\": \"algorithm\", \"parameters\": \"\", \"parameter_index\": 0}"),
                "no-more-trial-jobs", List.of("{\"parameter_id\": 0, \"parameter_source\": \"algorithm\", \"parameters\": {}, \"parameter_index\": 0}"),
                "kill-trial-job", List.of("\"\"", "3"),
                "websocket-envelope", List.of("{\"type\": \"in\", \"content\": \"{}\"}", "{\"content\": \"{}\"}", "{\"type\": \"_bye_\", \"content\": \"x\"}"),
                "experiment-config", List.of("{\"advisor\": {\"name\": \"Hyperband\"}, \"tuner\": {\"name\": \"TPE\"}}",
                        "{\"tuner\": {\"classArgs\": {}}}", "{\"trialConcurrency\": 2}"),
                "trial-end", List.of("{\"trial_job_id\": \"J\", \"event\": 3}"),
                "import-data", List.of("[{\"parameter\": {}, \"value\": {\"acc\": 1}}]"));
        bad.forEach((schema, payloads) -> payloads.forEach(payload ->
                assertThat(errors(schema, payload)).as(schema + " must refuse " + payload).isNotEmpty()));
    }

    @Test
    void schemasAcceptTheDocumentedForms() {
        Map<String, List<String>> good = Map.of(
                "websocket-envelope", List.of("{\"type\": \"IN\", \"content\": \"{}\"}", "{\"type\": \"TE\"}", "{\"type\": \"_nop_\"}",
                        "{\"type\": \"_bye_\", \"reason\": \"TE command\"}"),
                "experiment-config", List.of("{\"tuner\": {\"name\": \"TPE\", \"classArgs\": {\"seed\": 7}}, \"assessor\": {\"name\": \"Medianstop\"}}",
                        "{\"advisor\": {\"className\": \"org.example.MyAdvisor\", \"codeDirectory\": \"/opt/plugins\"}, \"trialConcurrency\": 4}"),
                "metric-data", List.of("{\"trial_job_id\": \"J\", \"type\": \"REQUEST_PARAMETER\", \"sequence\": 0, \"parameter_index\": 1}",
                        "{\"parameter_id\": null, \"trial_job_id\": \"J\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.5\"}"),
                "send-trial-job-parameter", List.of("{\"parameter_id\": 2, \"parameter_source\": \"algorithm\", \"parameters\": null, "
                        + "\"trial_job_id\": \"J\", \"parameter_index\": 2}"),
                "add-customized-trial-job", List.of("{\"x\": 1}", "{\"parameter_id\": null, \"parameters\": {\"x\": 1}}", "[]"));
        good.forEach((schema, payloads) -> payloads.forEach(payload ->
                assertThat(errors(schema, payload)).as(schema + " must accept " + payload).isEmpty()));
    }

    private static int checkCommand(String where, String code, String payload, List<String> problems) {
        if (EMPTY_PAYLOAD.contains(code)) {
            if (!payload.isEmpty()) {
                problems.add(where + ": " + code + " must have an empty payload, got " + payload);
            }
            return 1;
        }
        String schema = SCHEMA_OF_CODE.get(code);
        if (schema == null) {
            problems.add(where + ": no schema for command " + code);
            return 0;
        }
        List<String> e = errors(schema, payload);
        if (!e.isEmpty()) {
            problems.add(where + ": " + code + " " + payload + " does not fit " + schema + ": " + e);
        }
        return 1;
    }

    private static int check(String where, String schema, JsonNode node, List<String> problems) {
        Set<ValidationMessage> e = SCHEMAS_BY_NAME.get(schema).validate(node);
        if (!e.isEmpty()) {
            problems.add(where + " does not fit " + schema + ": " + e);
        }
        return 1;
    }

    /** The schema's complaints about a payload text; a text that is not JSON at all is one complaint. */
    static List<String> errors(String schema, String payload) {
        JsonNode node;
        try {
            node = JSON.readTree(payload);
        } catch (JsonProcessingException e) {
            return List.of("not JSON: " + e.getOriginalMessage());
        }
        if (node == null || node.isMissingNode()) {
            return List.of("empty");
        }
        return SCHEMAS_BY_NAME.get(schema).validate(node).stream().map(ValidationMessage::getMessage).toList();
    }

    private static List<Path> vectorFiles() throws IOException {
        try (Stream<Path> s = Files.list(VECTORS)) {
            return s.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }
}
