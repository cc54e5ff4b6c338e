package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.ProtocolException;

class MsgDispatcherBaseTest {

    /** Commands from a list, replies into a list. */
    static final class ListChannel implements CommandChannel {
        final Deque<Command> input;
        final List<Command> sent = new ArrayList<>();
        volatile boolean closed;

        ListChannel(Command... commands) {
            input = new ArrayDeque<>(List.of(commands));
        }

        @Override public synchronized Command receive() { return input.poll(); }
        @Override public synchronized void send(Command command) { sent.add(command); }
        @Override public void close() { closed = true; }
        @Override public String describe() { return "list"; }

        synchronized List<Command> sent() {
            return List.copyOf(sent);
        }
    }

    /** Routes every command to the default queue, where {@code work} handles it. */
    static final class Routing extends MsgDispatcherBase {
        private final Task work;
        final List<String> stops = new ArrayList<>();

        Routing(CommandChannel channel, Duration stopTimeout, Task work) {
            super(channel, stopTimeout);
            this.work = work;
        }

        @Override
        protected void route(Command command) throws ProtocolException {
            if (command.type() == CommandType.UPDATE_SEARCH_SPACE) {
                throw new ProtocolException("SS is refused here");
            }
            submit(Queue.DEFAULT, work);
        }

        @Override
        protected void onStop() {
            stops.add("saved");
        }
    }

    @Test
    void aNormalStopDrainsTheQueueThenSavesAndExitsZero() {
        ListChannel ch = new ListChannel(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), Command.of(CommandType.TERMINATE));
        List<String> handled = new ArrayList<>();
        Routing d = new Routing(ch, Duration.ofSeconds(30), () -> handled.add("GE"));
        assertThat(d.run()).isZero();
        assertThat(handled).containsExactly("GE");
        assertThat(d.stops).containsExactly("saved");
        assertThat(ch.sent()).isEmpty();
        assertThat(ch.closed).isTrue();
    }

    @Test
    void aStuckPluginAfterTheStopIsReportedNotHidden() {
        CountDownLatch never = new CountDownLatch(1);
        ListChannel ch = new ListChannel(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), Command.of(CommandType.TERMINATE));
        Routing d = new Routing(ch, Duration.ofMillis(200), never::await);
        assertThat(d.run()).isEqualTo(1);
        assertThat(d.stops).as("no checkpoint while a plugin is inside a call").isEmpty();
        assertThat(ch.sent()).singleElement().satisfies(er -> {
            assertThat(er.type()).isEqualTo(CommandType.ERROR);
            assertThat(er.payload()).contains("did not finish within PT0.2S after the stop");
        });
    }

    @Test
    void aFailingTaskIsReportedOnceWithItsStackTrace() {
        ListChannel ch = new ListChannel(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        Routing d = new Routing(ch, Duration.ofSeconds(30), () -> {
            throw new PluginException("the tuner failed in generateParameters(0)", new IllegalStateException("boom"));
        });
        assertThat(d.run()).isEqualTo(1);
        assertThat(ch.sent()).singleElement().satisfies(er -> {
            assertThat(er.type()).isEqualTo(CommandType.ERROR);
            assertThat(er.payload()).startsWith("the tuner failed in generateParameters(0): java.lang.IllegalStateException: boom")
                    .contains("at org.tunekit.dispatcher.MsgDispatcherBaseTest");
        });
    }

    @Test
    void badInputIsReportedAfterTheCommandsBeforeIt() {
        ListChannel ch = new ListChannel(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), new Command(CommandType.UPDATE_SEARCH_SPACE, "{}"));
        List<String> handled = new ArrayList<>();
        Routing d = new Routing(ch, Duration.ofSeconds(30), () -> handled.add("GE"));
        assertThat(d.run()).isEqualTo(1);
        assertThat(handled).containsExactly("GE");
        assertThat(ch.sent()).singleElement().satisfies(er -> assertThat(er.payload()).startsWith("protocol error: SS is refused here"));
    }
}
