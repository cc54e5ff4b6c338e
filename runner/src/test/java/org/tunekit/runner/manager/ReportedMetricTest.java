package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.MetricReport;

class ReportedMetricTest {
    @Test
    void aTrialsTextIsReadForItsChannelsTrialAndItsValueTextKeptAsWritten() throws ProtocolException {
        ReportedMetric m = ReportedMetric.read(
                "{\"trial_job_id\": \"other\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"{\\\"default\\\": 0.250, \\\"acc\\\": 1}\"}",
                "Ab1", 7);
        assertThat(m.data().trialJobId()).isEqualTo("Ab1");
        assertThat(m.data().parameterId()).isEqualTo(7L);
        assertThat(m.data().type()).isEqualTo(MetricReport.Type.FINAL);
        assertThat(m.data().metric().reported()).isEqualTo(Map.of("default", 0.25, "acc", 1L));
        assertThat(m.valueText()).isEqualTo("{\"default\": 0.250, \"acc\": 1}");
        // a value that is not a JSON string is kept as its JSON
        assertThat(ReportedMetric.read("{\"type\": \"PERIODICAL\", \"sequence\": 1, \"value\": 0.5}", "Ab1", 7).valueText()).isEqualTo("0.5");
        assertThat(ReportedMetric.read("{\"type\": \"REQUEST_PARAMETER\", \"parameter_index\": 2}", "Ab1", 7).data().parameterIndex())
                .isEqualTo(2);
    }

    @Test
    void whatIsWrongWithATrialsTextIsNamed() {
        assertThatThrownBy(() -> ReportedMetric.read("[1]", "Ab1", 7)).isInstanceOf(ProtocolException.class)
                .hasMessage("a metric must be a JSON object, got [1]");
        assertThatThrownBy(() -> ReportedMetric.read("{\"type\": \"FINAL\"", "Ab1", 7)).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid JSON in the metric");
        assertThatThrownBy(() -> ReportedMetric.read("{\"type\": \"FINAL\", \"value\": \"\\\"high\\\"\"}", "Ab1", 7))
                .isInstanceOf(ProtocolException.class).hasMessage("ME value: metric is a string that is not a number: \"high\"");
    }
}
