package org.tunekit.dispatcher.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;

class PayloadsTest {

    private static Command c(CommandType t, String payload) {
        return new Command(t, payload);
    }

    @Test
    void searchSpaceMustBeAnObject() throws ProtocolException {
        assertThat(Payloads.searchSpace(c(CommandType.INITIALIZE, "{\"x\": {\"_type\": \"choice\", \"_value\": [1]}}"))).containsKey("x");
        assertThatThrownBy(() -> Payloads.searchSpace(c(CommandType.UPDATE_SEARCH_SPACE, "[1]")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("SS payload must be a JSON object (the search space), got a list");
        assertThatThrownBy(() -> Payloads.searchSpace(c(CommandType.INITIALIZE, "{")))
                .isInstanceOf(ProtocolException.class).hasMessageStartingWith("invalid JSON in IN payload");
    }

    @Test
    void aNullAdPayloadIsAProtocolError() {
        // found by PayloadsFuzzTest: the JSON null escaped as a NullPointerException
        assertThatThrownBy(() -> Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, "null")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("AD record 0 must be an object, got null");
    }

    @Test
    void trialCountIsANonNegativeInteger() throws ProtocolException {
        assertThat(Payloads.trialCount(c(CommandType.REQUEST_TRIAL_JOBS, "3"))).isEqualTo(3);
        assertThat(Payloads.trialCount(c(CommandType.REQUEST_TRIAL_JOBS, " 0\n"))).isZero();
        for (String bad : List.of("-1", "1.5", "\"2\"", "", "two", "2000000")) {
            assertThatThrownBy(() -> Payloads.trialCount(c(CommandType.REQUEST_TRIAL_JOBS, bad))).as(bad)
                    .isInstanceOf(ProtocolException.class)
                    .hasMessageStartingWith("GE payload must be a non-negative integer")
                    .hasMessageContaining("got \"" + bad + "\"");
        }
    }

    @Test
    void metricReadsEveryKind() throws ProtocolException {
        Payloads.MetricData fin = Payloads.metric(c(CommandType.REPORT_METRIC_DATA,
                "{\"parameter_id\": 4, \"trial_job_id\": \"Ab1\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.93\"}"));
        assertThat(fin.parameterId()).isEqualTo(4L);
        assertThat(fin.trialJobId()).isEqualTo("Ab1");
        assertThat(fin.type()).isEqualTo(MetricReport.Type.FINAL);
        assertThat(fin.metric().value()).isEqualTo(0.93);

        Payloads.MetricData dict = Payloads.metric(c(CommandType.REPORT_METRIC_DATA,
                "{\"parameter_id\": null, \"trial_job_id\": \"x\", \"type\": \"PERIODICAL\", \"sequence\": 2,"
                        + " \"value\": \"{\\\"default\\\": 0.5, \\\"loss\\\": 1}\"}"));
        assertThat(dict.parameterId()).isNull();
        assertThat(dict.sequence()).isEqualTo(2);
        assertThat(dict.metric().value()).isEqualTo(0.5);
        assertThat(dict.metric().extras()).containsEntry("loss", 1L);

        assertThat(Payloads.metric(c(CommandType.REPORT_METRIC_DATA,
                "{\"parameter_id\": 0, \"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": \"NaN\"}")).metric().value()).isNaN();
        Payloads.MetricData req = Payloads.metric(c(CommandType.REPORT_METRIC_DATA,
                "{\"trial_job_id\": \"x\", \"type\": \"REQUEST_PARAMETER\", \"parameter_index\": 2}"));
        assertThat(req.metric()).isNull();
        assertThat(req.parameterIndex()).isEqualTo(2);
    }

    @Test
    void metricErrorsNameTheField() {
        assertMetricError("{\"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": 1}", "ME FINAL payload needs \"parameter_id\"");
        assertMetricError("[]", "ME payload must be a JSON object, got a list");
        assertMetricError("{\"type\": \"FINAL\", \"value\": 1}", "ME payload needs a string \"trial_job_id\", got nothing");
        assertMetricError("{\"trial_job_id\": 5, \"type\": \"FINAL\", \"value\": 1}", "ME payload needs a string \"trial_job_id\", got 5");
        assertMetricError("{\"trial_job_id\": \"x\", \"value\": 1}", "ME payload needs a string \"type\", got nothing");
        assertMetricError("{\"trial_job_id\": \"x\", \"type\": \"LATE\", \"value\": 1}",
                "ME field \"type\" must be FINAL, PERIODICAL or REQUEST_PARAMETER, got \"LATE\"");
        assertMetricError("{\"parameter_id\": 1, \"trial_job_id\": \"x\", \"type\": \"FINAL\"}", "ME FINAL payload has no \"value\"");
        assertMetricError("{\"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": 1, \"parameter_id\": \"p\"}",
                "ME field \"parameter_id\" must be an integer, got \"p\"");
        assertMetricError("{\"parameter_id\": 1, \"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": 1, \"sequence\": 1.5}",
                "ME field \"sequence\" must be an integer, got 1.5");
        assertMetricError("{\"parameter_id\": 1, \"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": \"{\\\"loss\\\": 1}\"}",
                "ME value: metric object has no \"default\" key");
        assertMetricError("{\"parameter_id\": 1, \"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": \"[1,\"}", "invalid JSON in ME value");
        assertMetricError("{\"parameter_id\": 1, \"trial_job_id\": \"x\", \"type\": \"FINAL\", \"value\": true}", "ME value: metric must be a number");
    }

    private static void assertMetricError(String payload, String message) {
        assertThatThrownBy(() -> Payloads.metric(c(CommandType.REPORT_METRIC_DATA, payload))).as(payload)
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aTrialsMetricIsReadForTheTrialItsChannelNamesWithItsParameterIdWhenTheTextHasNone() throws ProtocolException {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("trial_job_id", 5);
        fields.put("type", "FINAL");
        fields.put("value", "{\"default\": 0.5, \"loss\": 1}");
        Payloads.MetricData m = Payloads.trialMetric(fields, "Ab1", 7);
        assertThat(m.trialJobId()).isEqualTo("Ab1");
        assertThat(m.parameterId()).isEqualTo(7L);
        assertThat(m.metric().value()).isEqualTo(0.5);
        assertThat(m.metric().extras()).containsEntry("loss", 1L);
        fields.put("parameter_id", null);
        assertThat(Payloads.trialMetric(fields, "Ab1", 7).parameterId()).isEqualTo(7L);
        fields.put("parameter_id", 3L);
        assertThat(Payloads.trialMetric(fields, "Ab1", 7).parameterId()).isEqualTo(3L);
        // what is wrong is named as for a manager's ME
        fields.put("sequence", -1L);
        assertThatThrownBy(() -> Payloads.trialMetric(fields, "Ab1", 7)).isInstanceOf(ProtocolException.class)
                .hasMessage("ME field \"sequence\" must be an integer from 0 to 2147483647, got -1");
    }

    @Test
    void aMetricOrEndPostedAsARecordIsTakenAsItIsAndCarriesNoText() throws ProtocolException {
        Payloads.MetricData metric = new Payloads.MetricData(4L, "Ab1", MetricReport.Type.FINAL, 0, org.tunekit.sdk.Metric.of(0.5), 0);
        Command me = Command.of(metric);
        assertThat(me.type()).isEqualTo(CommandType.REPORT_METRIC_DATA);
        assertThat(me.payload()).isEmpty();
        assertThat(Payloads.metric(me)).isSameAs(metric);
        Payloads.TrialEndData end = new Payloads.TrialEndData("Ab1", "SUCCEEDED", 4L);
        Command en = Command.of(end);
        assertThat(en.type()).isEqualTo(CommandType.TRIAL_END);
        assertThat(Payloads.trialEnd(en)).isSameAs(end);
        assertThat(en.toString()).startsWith("EN TrialEndData[trialJobId=Ab1");
        // a record goes with its own command, and alone
        assertThatThrownBy(() -> new Command(CommandType.TRIAL_END, "", metric)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a MetricData is the payload of ME alone, with no text; got EN");
        assertThatThrownBy(() -> new Command(CommandType.REPORT_METRIC_DATA, "{}", metric)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a MetricData is the payload of ME alone, with no text; got ME with text");
    }

    @Test
    void trialEndReadsTheParameterIdFromHyperParams() throws ProtocolException {
        Payloads.TrialEndData end = Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"Ab1\", \"event\": \"SUCCEEDED\", \"hyper_params\": \"{\\\"parameter_id\\\": 7, \\\"parameters\\\": {}}\"}"));
        assertThat(end).isEqualTo(new Payloads.TrialEndData("Ab1", "SUCCEEDED", 7L));
        assertThat(end.succeeded()).isTrue();
        assertThat(Payloads.trialEnd(c(CommandType.TRIAL_END, "{\"trial_job_id\": \"x\", \"event\": \"FAILED\"}")).parameterId()).isNull();
        assertThat(Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"x\", \"event\": \"EARLY_STOPPED\", \"hyper_params\": {\"parameter_id\": 3}}")).parameterId()).isEqualTo(3L);

        assertThatThrownBy(() -> Payloads.trialEnd(c(CommandType.TRIAL_END, "{\"trial_job_id\": \"x\"}")))
                .hasMessage("EN payload needs a string \"event\", got nothing");
        assertThatThrownBy(() -> Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"x\", \"event\": \"FAILED\", \"hyper_params\": \"[1]\"}")))
                .hasMessageContaining("EN hyper_params must be the JSON text of a parameter record (an object), got a list");
        assertThatThrownBy(() -> Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"x\", \"event\": \"FAILED\", \"hyper_params\": \"{\\\"parameter_id\\\": \\\"a\\\"}\"}")))
                .hasMessage("EN hyper_params.parameter_id must be an integer, got \"a\"");
        assertThatThrownBy(() -> Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"x\", \"event\": \"FAILED\", \"hyper_params\": 5}")))
                .hasMessage("EN hyper_params must be a string holding a parameter record, got 5");
        assertThatThrownBy(() -> Payloads.trialEnd(c(CommandType.TRIAL_END,
                "{\"trial_job_id\": \"x\", \"event\": \"FAILED\", \"hyper_params\": \"{\"}")))
                .hasMessageStartingWith("invalid JSON in EN hyper_params");
    }

    @Test
    void importDataReadsRecordsAndNamesTheBadOne() throws ProtocolException {
        List<ImportedTrial> trials = Payloads.importData(c(CommandType.IMPORT_DATA,
                "[{\"parameter\": {\"x\": 1}, \"value\": 0.5, \"trialJobId\": \"t1\"},"
                        + " {\"parameter\": {\"x\": 2}, \"value\": \"{\\\"default\\\": 0.25}\"}]"));
        assertThat(trials).hasSize(2);
        assertThat(trials.get(0).parameters()).isEqualTo(Parameters.of(Map.of("x", 1L)));
        assertThat(trials.get(0).extra()).containsExactly(Map.entry("trialJobId", "t1"));
        assertThat(trials.get(1).metric().value()).isEqualTo(0.25);

        assertImportError("{}", "FD payload must be a JSON list of {\"parameter\": ..., \"value\": ...} records, got an object");
        assertImportError("[{\"parameter\": {}, \"value\": 1}, 3]", "FD record 1 must be an object, got 3");
        assertImportError("[{\"value\": 1}]", "FD record 0 needs a \"parameter\" object, got null");
        assertImportError("[{\"parameter\": [1], \"value\": 1}]", "FD record 0 needs a \"parameter\" object, got a list");
        assertImportError("[{\"parameter\": {}}]", "FD record 0 has no \"value\"");
        assertImportError("[{\"parameter\": {}, \"value\": \"abc\"}]", "invalid JSON in FD record 0 value");
        assertImportError("[{\"parameter\": {}, \"value\": {\"x\": 1}}]", "FD record 0 value: metric object has no \"default\" key");
    }

    private static void assertImportError(String payload, String message) {
        assertThatThrownBy(() -> Payloads.importData(c(CommandType.IMPORT_DATA, payload))).as(payload)
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining(message);
    }

    @Test
    void customizedTrialsReadRecordsOrBareParameters() throws ProtocolException {
        List<ParameterRecord> one = Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, "{\"x\": 1}"));
        assertThat(one).containsExactly(new ParameterRecord(null, "customized", Parameters.of(Map.of("x", 1L))));
        List<ParameterRecord> list = Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB,
                "[{\"parameter_id\": 3, \"parameter_source\": \"resumed\", \"parameters\": {\"x\": 2}}]"));
        assertThat(list).containsExactly(new ParameterRecord(3L, "resumed", Parameters.of(Map.of("x", 2L))));
        assertThatThrownBy(() -> Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, "[1]")))
                .hasMessage("AD record 0 must be an object, got 1");
        assertThatThrownBy(() -> Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, "[{\"parameter_id\": 1}]")))
                .hasMessage("AD record 0 needs a \"parameters\" object, got null");
        assertThatThrownBy(() -> Payloads.customizedTrials(c(CommandType.ADD_CUSTOMIZED_TRIAL_JOB,
                "[{\"parameter_id\": \"one\", \"parameters\": {}}]")))
                .hasMessage("AD record 0 parameter_id must be an integer, got \"one\"");
    }

    @Test
    void repliesAreWrittenAsNniWritesThem() throws ProtocolException {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("lr", 0.1);
        p.put("model", "tree");
        assertThat(Payloads.parameterRecord(5, p)).isEqualTo(
                "{\"parameter_id\": 5, \"parameter_source\": \"algorithm\", \"parameters\": {\"lr\": 0.1, \"model\": \"tree\"}, \"parameter_index\": 0}");
        assertThat(Payloads.parameterRecord(0, "")).isEqualTo(
                "{\"parameter_id\": 0, \"parameter_source\": \"algorithm\", \"parameters\": \"\", \"parameter_index\": 0}");
        assertThat(Payloads.trialParameterRecord(2, null, "Ab\"1", 1)).isEqualTo(
                "{\"parameter_id\": 2, \"parameter_source\": \"algorithm\", \"parameters\": null, \"trial_job_id\": \"Ab\\\"1\", \"parameter_index\": 1}");
        assertThat(Payloads.killTrial("Ab1")).isEqualTo("\"Ab1\"");
        assertThat(JsonCodec.parse(Payloads.parameterRecord(5, p), "TR")).isInstanceOf(Map.class);
    }
}
