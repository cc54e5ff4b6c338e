package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.MsgDispatcherBase;

class DispatcherLinkTest {
    private static final Map<String, Object> SPACE = Map.of("x", Map.of("_type", "uniform", "_value", List.of(0, 1)));

    @Test
    void trialsAddedBeforeTheDispatcherStartedKeepTheirOrderWhateverItTookWhileWaiting() throws Exception {
        MsgDispatcherBase[] dispatcher = new MsgDispatcherBase[1];
        AtomicBoolean first = new AtomicBoolean(true);
        // the first event taken off the queue comes back only once the dispatcher has answered IN, so that the
        // link, in lock step, finds the answer before it takes the next one
        BlockingDeque<ManagerEvent> events = new LinkedBlockingDeque<>() {
            @Override
            public ManagerEvent poll() {
                ManagerEvent e = super.poll();
                if (e != null && first.getAndSet(false)) {
                    try {
                        assertThat(dispatcher[0].awaitHandled(1, Duration.ofSeconds(20))).isTrue();
                    } catch (InterruptedException x) {
                        throw new AssertionError(x);
                    }
                }
                return e;
            }
        };
        List<ManagerEvent> added = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            added.add(new ManagerEvent.TrialAdded(Map.of("x", 0.125 * (i + 1)), "warmStart[" + i + "]", new CompletableFuture<>()));
        }
        events.addAll(added);
        DispatcherLink link = new DispatcherLink(events);
        RecordingTuner tuner = new RecordingTuner();
        link.create(channel -> dispatcher[0] = tuner.dispatcher(channel));
        ManagerSettings settings = new ManagerSettings(SPACE, 2, 5, null, null, null, Duration.ZERO);
        link.start(true, new RunState(settings, Clock.systemUTC()), reply -> {}, failure -> {});
        try {
            link.initialize(SPACE);
            assertThat(first).isFalse(); // it did take one while it waited
            assertThat(new ArrayList<>(events)).containsExactlyElementsOf(added);
        } finally {
            link.close();
        }
    }
}
