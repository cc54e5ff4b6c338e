package org.tunekit.dispatcher;

import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Tuner;

/**
 * Makes the dispatcher an experiment config asks for: an {@link AdvisorDispatcher} when it names an
 * advisor, else a {@link MsgDispatcher} over its tuner and optional assessor. Every manager, NNI's over
 * a channel or Tunekit's own runner in process, gets its dispatcher here, so both run the same code.
 */
public final class Dispatchers {
    private Dispatchers() {}

    /**
     * Creates the plugins the config names and the dispatcher that drives them.
     *
     * @throws org.tunekit.dispatcher.plugin.PluginConfigurationException when an algorithm is unknown or its arguments are wrong
     * @throws PluginException when a plugin's constructor throws
     */
    public static MsgDispatcherBase create(CommandChannel channel, ExperimentConfig config, AlgorithmCatalog catalog,
                                           DispatcherSettings settings) {
        if (config.advisor() != null) {
            return new AdvisorDispatcher(channel, catalog.create(config.advisor(), Advisor.class), settings);
        }
        Tuner tuner = catalog.create(config.tuner(), Tuner.class);
        Assessor assessor = config.assessor() == null ? null : catalog.create(config.assessor(), Assessor.class);
        return new MsgDispatcher(channel, tuner, assessor, settings);
    }
}
