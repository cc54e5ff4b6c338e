package org.tunekit.tuners.multiobjective;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.testkit.AdvisorRun;
import org.tunekit.sdk.testkit.AdvisorTestKit;
import org.tunekit.tuners.bohb.BohbProvider;
import org.tunekit.tuners.hyperband.BracketAdvisor;
import org.tunekit.tuners.hyperband.HyperbandProvider;

/**
 * Hyperband and BOHB judge the {@code default} metric of a metric object: trials that report
 * {@code {"default": v, "latency": ..., "accuracy": ...}} make the same run as trials that report v.
 */
class AdvisorsWithMetricObjectsTest {
    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).choice("c", "a", "b", "c").build();

    /** Turns every reported number v into {default: v, latency: 10 - v, accuracy: -v} before the advisor sees it. */
    private record WithObjects(Advisor advisor) implements Advisor {
        private static Metric dict(Metric m) {
            return Metric.fromReported(Map.of("default", m.value(), "latency", 10 - m.value(), "accuracy", -m.value()));
        }

        @Override
        public void open(AdvisorContext context) {
            advisor.open(context);
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            advisor.updateSearchSpace(space);
        }

        @Override
        public void requestTrialJobs(int count) {
            advisor.requestTrialJobs(count);
        }

        @Override
        public void reportMetric(MetricReport r) {
            advisor.reportMetric(new MetricReport(r.parameterId(), r.trialJobId(), r.type(), r.sequence(),
                    r.metric() == null ? null : dict(r.metric()), r.parameterIndex()));
        }

        @Override
        public void trialEnd(TrialEnd end) {
            advisor.trialEnd(end);
        }

        @Override
        public void importData(List<ImportedTrial> trials) {
            advisor.importData(trials);
        }

        @Override
        public void addCustomizedTrials(List<ParameterRecord> records) {
            advisor.addCustomizedTrials(records);
        }

        @Override
        public void saveCheckpoint(Path directory) throws IOException {
            advisor.saveCheckpoint(directory);
        }

        @Override
        public void loadCheckpoint(Path directory) throws IOException {
            advisor.loadCheckpoint(directory);
        }
    }

    private static AdvisorRun run(AdvisorProvider provider, Map<String, Object> args, boolean objects) {
        Function<ClassArguments, Advisor> factory = a -> objects ? new WithObjects(provider.create(a)) : provider.create(a);
        return AdvisorTestKit.forAdvisor(factory).withArguments(args).withSpace(SPACE).withSlots(3).run(60, p -> {
            double[] curve = new double[(int) p.getLong(BracketAdvisor.BUDGET_KEY)];
            for (int i = 0; i < curve.length; i++) {
                curve[i] = Math.abs(p.getDouble("x") - 0.3) + 1.0 / (i + 1);
            }
            return curve;
        });
    }

    private static List<Parameters> parameters(AdvisorRun run) {
        return run.trials().stream().map(AdvisorRun.Trial::parameters).toList();
    }

    @Test
    void hyperbandAndBohbMakeTheSameRunWithMetricObjects() {
        Map<AdvisorProvider, Map<String, Object>> cases = Map.of(
                new HyperbandProvider(), Map.of("R", 9, "eta", 3, "seed", 2, "optimize_mode", "minimize"),
                new BohbProvider(), Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 5, "optimize_mode", "minimize"));
        cases.forEach((provider, args) -> {
            AdvisorRun plain = run(provider, args, false);
            AdvisorRun objects = run(provider, args, true);
            assertThat(plain.trials()).as(provider.name()).hasSize(60);
            assertThat(parameters(objects)).as(provider.name()).isEqualTo(parameters(plain));
            assertThat(objects.trials().stream().map(AdvisorRun.Trial::end).toList()).as(provider.name())
                    .isEqualTo(plain.trials().stream().map(AdvisorRun.Trial::end).toList());
        });
    }
}
