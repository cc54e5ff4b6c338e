package org.tunekit.sdk.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;

class AdvisorTestKitTest {
    private static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).build();

    /**
     * Sends a trial with a budget per request, kills a trial whose first value is above 0.8, and says
     * {@code NO} after {@code limit} trials. Records what it hears.
     */
    static class BudgetAdvisor implements Advisor {
        final int limit;
        final List<String> heard = new ArrayList<>();
        AdvisorContext context;
        SearchSpace space;
        final SplittableRandom random = new SplittableRandom(3);
        int sent;

        BudgetAdvisor(ClassArguments arguments) {
            this.limit = (int) arguments.getLong("limit", 1000);
        }

        @Override
        public void open(AdvisorContext context) {
            this.context = context;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            this.space = space;
        }

        @Override
        public void requestTrialJobs(int count) {
            for (int i = 0; i < count; i++) {
                if (sent == limit) {
                    context.noMoreTrials(context.newParameterId());
                    return;
                }
                Map<String, Object> values = new LinkedHashMap<>(space.sample(random).values());
                values.put("budget", 3L);
                context.sendTrial(context.newParameterId(), Parameters.of(values));
                sent++;
            }
        }

        @Override
        public void reportMetric(MetricReport report) {
            heard.add(report.type() + " " + report.trialJobId() + " " + report.metric().value());
            if (report.type() == MetricReport.Type.PERIODICAL && report.sequence() == 0 && report.metric().value() > 0.8) {
                context.killTrial(report.trialJobId());
            }
        }

        @Override
        public void trialEnd(TrialEnd end) {
            heard.add("EN " + end.trialJobId() + " " + end.event());
        }
    }

    private static double[] curve(Parameters p) {
        double x = p.getDouble("x");
        return new double[] {x, x / 2, x / 4};
    }

    @Test
    void runsTrialsThroughTheirCurvesAndHonoursKills() {
        List<BudgetAdvisor> created = new ArrayList<>();
        AdvisorRun run = AdvisorTestKit.forAdvisor(a -> {
            BudgetAdvisor b = new BudgetAdvisor(a);
            created.add(b);
            return b;
        }).withSpace(SPACE).withSlots(2).run(30, AdvisorTestKitTest::curve);
        assertThat(run.trials()).hasSize(30);
        assertThat(run.noMoreTrials()).isFalse();
        assertThat(run.trials()).allSatisfy(t -> {
            assertThat(t.extraKeys()).containsExactly("budget");
            double x = t.parameters().getDouble("x");
            if (x > 0.8) {
                assertThat(t.killed()).isTrue();
                assertThat(t.reported()).containsExactly(x);
            } else {
                assertThat(t.end()).isEqualTo("SUCCEEDED");
                assertThat(t.reported()).containsExactly(x, x / 2, x / 4);
            }
        });
        assertThat(run.trials()).anyMatch(AdvisorRun.Trial::killed);
        assertThat(run.withValue("budget", 3L)).hasSize(30);
        BudgetAdvisor advisor = created.get(0);
        AdvisorRun.Trial first = run.trials().stream().filter(t -> !t.killed()).findFirst().orElseThrow();
        assertThat(advisor.heard).containsSubsequence("PERIODICAL " + first.trialJobId() + " " + first.reported()[0],
                "PERIODICAL " + first.trialJobId() + " " + first.reported()[2], "FINAL " + first.trialJobId() + " " + first.reported()[2],
                "EN " + first.trialJobId() + " SUCCEEDED");
        assertThat(advisor.heard).filteredOn(h -> h.startsWith("EN ")).hasSize(30);
    }

    @Test
    void aRunEndsWhenTheAdvisorSaysNoMoreTrials() {
        AdvisorRun run = AdvisorTestKit.forAdvisor(BudgetAdvisor::new).withArguments(Map.of("limit", 5)).withSpace(SPACE)
                .run(50, AdvisorTestKitTest::curve);
        assertThat(run.noMoreTrials()).isTrue();
        assertThat(run.trials()).hasSize(5);
    }

    @Test
    void anAdvisorThatLeavesTheManagerWaitingFails() {
        Function<ClassArguments, Advisor> silent = a -> new BudgetAdvisor(a) {
            @Override
            public void requestTrialJobs(int count) {}
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(silent).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .isInstanceOf(AssertionError.class)
                .hasMessage("the advisor left the manager waiting: 3 trial(s) asked for, 0 started, none running, and neither a trial nor NO came");
    }

    @Test
    void idsParametersKillsAndExceptionsAreChecked() {
        Function<ClassArguments, Advisor> reuses = a -> new BudgetAdvisor(a) {
            @Override
            public void requestTrialJobs(int count) {
                long id = context.newParameterId();
                context.sendTrial(id, space.sample(random));
                context.sendTrial(id, space.sample(random));
            }
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(reuses).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .isInstanceOf(AssertionError.class).hasMessage("the advisor sent parameter id 0 twice");

        Function<ClassArguments, Advisor> invents = a -> new BudgetAdvisor(a) {
            @Override
            public void requestTrialJobs(int count) {
                context.sendTrial(42, space.sample(random));
            }
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(invents).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .hasMessage("the advisor sent a trial with parameter id 42, which newParameterId() never gave");

        Function<ClassArguments, Advisor> outside = a -> new BudgetAdvisor(a) {
            @Override
            public void requestTrialJobs(int count) {
                context.sendTrial(context.newParameterId(), Parameters.of(Map.of("x", 2.0)));
            }
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(outside).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .hasMessageStartingWith("the advisor sent parameters that do not fit the space (").hasMessageContaining("'x'");

        Function<ClassArguments, Advisor> killsAStranger = a -> new BudgetAdvisor(a) {
            @Override
            public void reportMetric(MetricReport report) {
                context.killTrial("trial999");
            }
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(killsAStranger).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .hasMessage("the advisor killed trial999, which is not running");

        Function<ClassArguments, Advisor> throwing = a -> new BudgetAdvisor(a) {
            @Override
            public void trialEnd(TrialEnd end) {
                throw new IllegalStateException("broken on purpose");
            }
        };
        assertThatThrownBy(() -> AdvisorTestKit.forAdvisor(throwing).withSpace(SPACE).run(3, AdvisorTestKitTest::curve))
                .isInstanceOf(AssertionError.class)
                .hasMessage("the advisor's trialEnd threw java.lang.IllegalStateException: broken on purpose")
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void settingsAreChecked() {
        AdvisorTestKit kit = AdvisorTestKit.forAdvisor(BudgetAdvisor::new);
        assertThatThrownBy(() -> kit.withSlots(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> kit.run(0, AdvisorTestKitTest::curve)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> kit.withSpace(SPACE).run(2, p -> new double[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the curve function gave no values for");
    }
}
