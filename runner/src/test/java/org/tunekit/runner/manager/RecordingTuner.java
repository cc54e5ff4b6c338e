package org.tunekit.runner.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.MsgDispatcher;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A tuner for the tests that suggests x = 0.5 + id / 1000 for parameter id {@code id} and records, in order,
 * what it was asked and told: {@code generate 3}, {@code result 3 0.503}, {@code import {x=0.125} 0.125}.
 * The dispatcher calls it from its own thread.
 */
public final class RecordingTuner implements Tuner {
    public final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    /** A dispatcher over this tuner, without an assessor. */
    public MsgDispatcherBase dispatcher(CommandChannel channel) {
        return new MsgDispatcher(channel, this, null, new DispatcherSettings(false, null, false, Duration.ofSeconds(20)));
    }

    /** The calls that start with {@code prefix}, in order. */
    public List<String> calls(String prefix) {
        synchronized (calls) {
            return calls.stream().filter(c -> c.startsWith(prefix)).toList();
        }
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        calls.add("space " + space.parameters().size());
    }

    @Override
    public Parameters generateParameters(long parameterId) {
        calls.add("generate " + parameterId);
        return Parameters.of(Map.of("x", 0.5 + parameterId / 1000.0));
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        calls.add("result " + result.parameterId() + " " + result.metric().value());
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            calls.add("import " + t.parameters().values() + " " + t.metric().value());
        }
    }
}
