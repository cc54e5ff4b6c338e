package org.tunekit.sdk.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.SearchSpace;

class TunerContextInKitTest {
    private static final SearchSpace SPACE = SearchSpace.builder().randint("n", 0, 100).build();

    /**
     * Hands out rounds of two trials; refuses while a round is out, counting the refused slots, and
     * when a round has reported forms the next and sends as many of it as were refused.
     */
    static class RoundTuner implements Tuner {
        final List<String> calls = new ArrayList<>();
        TunerContext context;
        int round;
        int waiting = 2;
        int reported;
        int unfilled;

        RoundTuner(ClassArguments args) {}

        @Override
        public void open(TunerContext c) {
            calls.add("open");
            context = c;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            calls.add("space");
        }

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            if (waiting == 0) {
                unfilled++;
                throw new NoMoreTrialsException("round " + round + " is out");
            }
            return member();
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> ids) {
            List<Parameters> out = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                if (waiting == 0) {
                    unfilled += ids.size() - i;
                    break;
                }
                out.add(member());
            }
            return out;
        }

        private Parameters member() {
            waiting--;
            return Parameters.of(Map.of("n", round * 10 + (1 - waiting)));
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            calls.add("result " + result.parameterId());
            if (++reported == 2) {
                round++;
                reported = 0;
                waiting = 2;
                while (unfilled > 0 && waiting > 0) {
                    unfilled--;
                    calls.add("sent " + context.sendTrial(member()));
                }
            }
        }
    }

    @Test
    void trialsSentThroughTheContextFillTheNextSlotsAndKeepTheRunGoing() {
        List<RoundTuner> made = new ArrayList<>();
        TunerRun run = TunerTestKit.forTuner(a -> {
            RoundTuner t = new RoundTuner(a);
            made.add(t);
            return t;
        }).withSpace(SPACE).withBatchSize(4).run(TargetFunction.maximize(p -> p.getLong("n")), 6);

        assertThat(run.history()).extracting(TunerRun.Trial::parameterId).containsExactly(0L, 1L, 4L, 5L, 8L, 9L);
        assertThat(run.history()).extracting(t -> t.parameters().getLong("n")).containsExactly(0L, 1L, 10L, 11L, 20L, 21L);
        assertThat(run.exhausted()).isFalse();
        assertThat(made.get(made.size() - 1).calls).startsWith("open", "space").contains("sent 4", "sent 5", "sent 8", "sent 9");
    }

    @Test
    void withoutTheContextARefusingTunerEndsTheRun() {
        TunerRun run = TunerTestKit.forTuner(a -> new RoundTuner(a) {
            @Override
            public void open(TunerContext c) {
                // never sends
                context = new TunerContext() {
                    @Override
                    public long sendTrial(Parameters p) {
                        return -1;
                    }
                };
            }
        }).withSpace(SPACE).withBatchSize(4).run(TargetFunction.maximize(p -> p.getLong("n")), 6);
        assertThat(run.history()).hasSize(2);
        assertThat(run.exhausted()).isTrue();
    }

    @Test
    void theContextWorksOnlyInsideTheKitsCallsOnItsThread() {
        AtomicReference<TunerContext> opened = new AtomicReference<>();
        AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
        TunerTestKit.forTuner(a -> new RoundTuner(a) {
            @Override
            public void open(TunerContext c) {
                super.open(c);
                opened.set(c);
            }

            @Override
            public void receiveTrialResult(TrialResult result) {
                Thread t = new Thread(() -> {
                    try {
                        opened.get().sendTrial(Parameters.of(Map.of("n", 1)));
                    } catch (Throwable e) {
                        fromOtherThread.set(e);
                    }
                }, "intruder");
                t.start();
                try {
                    t.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        }).withSpace(SPACE).run(TargetFunction.maximize(p -> p.getLong("n")), 1);

        assertThat(fromOtherThread.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("thread 'intruder'");
        assertThatThrownBy(() -> opened.get().sendTrial(Parameters.of(Map.of("n", 1))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside the tuner's callbacks");
    }

    @Test
    void aSentTrialOutsideTheSpaceFailsTheRun() {
        assertThatThrownBy(() -> TunerTestKit.forTuner(a -> new RoundTuner(a) {
            @Override
            public void receiveTrialResult(TrialResult result) {
                context.sendTrial(Parameters.of(Map.of("n", 500)));
            }
        }).withSpace(SPACE).run(TargetFunction.maximize(p -> p.getLong("n")), 3))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("the trial sent through the context for parameter id 1 is outside the search space");
    }
}
