package org.tunekit.sdk.objectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;

class ObjectivesTest {

    private static Objectives read(Object objectives) {
        return Objectives.from(ClassArguments.of(Map.of("objectives", objectives)));
    }

    @Test
    void readsMetricsModesAndReferences() {
        Objectives o = read(List.of(Map.of("metric", "accuracy", "mode", "Maximize", "reference", 0.5),
                Map.of("metric", "latency", "mode", "minimize")));
        assertThat(o.size()).isEqualTo(2);
        assertThat(o.list().get(0).metric()).isEqualTo("accuracy");
        assertThat(o.list().get(0).mode()).isEqualTo(OptimizeMode.MAXIMIZE);
        assertThat(o.list().get(0).reference().getAsDouble()).isEqualTo(0.5);
        assertThat(o.list().get(0).referenceLoss().getAsDouble()).isEqualTo(-0.5);
        assertThat(o.list().get(1).reference()).isEmpty();
        assertThat(o.toString()).isEqualTo("[maximize accuracy, minimize latency]");
        assertThat(o.requireSeveral("MOTPE")).isSameAs(o);
    }

    @Test
    void absentArgumentMeansNone() {
        assertThat(Objectives.from(ClassArguments.of(Map.of("optimize_mode", "maximize")))).isEqualTo(Objectives.none());
        assertThat(Objectives.none().isEmpty()).isTrue();
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> read("accuracy")).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'objectives' must be a list");
        assertThatThrownBy(() -> read(List.of())).hasMessageContaining("empty list");
        assertThatThrownBy(() -> read(List.of("accuracy"))).hasMessageContaining("'objectives[0]' must be an object");
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "max"))))
                .hasMessageContaining("'objectives[0].mode' must be \"maximize\" or \"minimize\"").hasMessageContaining("max");
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "minimize"), Map.of("metric", "b"))))
                .hasMessageContaining("'objectives[1].mode' is missing").hasMessageContaining("'b'");
        assertThatThrownBy(() -> read(List.of(Map.of("mode", "minimize")))).hasMessageContaining("'objectives[0].metric'");
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "minimize", "mdoe", 1))))
                .hasMessageContaining("unknown key 'mdoe'");
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "minimize", "reference", "x"))))
                .hasMessageContaining("'objectives[0].reference' must be a finite number");
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "minimize"), Map.of("metric", "a", "mode", "maximize"))))
                .hasMessageContaining("objective 2 repeats the metric 'a'");
    }

    @Test
    void aMultiObjectiveTunerNeedsTwo() {
        assertThatThrownBy(() -> read(List.of(Map.of("metric", "a", "mode", "minimize"))).requireSeveral("NSGA2"))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("NSGA2").hasMessageContaining("at least 2")
                .hasMessageContaining("only 'a'");
        assertThatThrownBy(() -> Objectives.none().requireSeveral("MOTPE")).hasMessageContaining("got none");
    }

    @Test
    void lossesAreReadFromMetricObjects() {
        Objectives o = read(List.of(Map.of("metric", "accuracy", "mode", "maximize"), Map.of("metric", "default", "mode", "minimize")));
        Metric m = Metric.fromReported(Map.of("default", 3, "accuracy", 0.9));
        assertThat(o.losses(m, "trial x")).containsExactly(-0.9, 3.0);
        assertThat(o.values(Map.of("default", "2.5", "accuracy", 1L), "t")).containsExactly(1.0, 2.5);
    }

    @Test
    void aMissingKeyNamesTheTrialAndTheKey() {
        Objectives o = read(List.of(Map.of("metric", "accuracy", "mode", "maximize"), Map.of("metric", "latency", "mode", "minimize")));
        TrialResult r = new TrialResult(4, Parameters.of(Map.of()), Metric.fromReported(Map.of("default", 1, "accuracy", 0.9)), false, "Ab3xZ");
        assertThatThrownBy(() -> o.losses(r)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trial Ab3xZ (parameter id 4)").hasMessageContaining("'latency'").hasMessageContaining("objective 2");
        TrialResult plain = new TrialResult(5, Parameters.of(Map.of()), Metric.of(1), false, null);
        assertThatThrownBy(() -> o.losses(plain)).hasMessageContaining("trial (parameter id 5)").hasMessageContaining("'accuracy'");
        assertThatThrownBy(() -> o.values(Map.of("accuracy", true, "latency", 1), "trial q"))
                .hasMessageContaining("trial q").hasMessageContaining("'accuracy', not a number");
    }
}
