package org.tunekit.dispatcher;

import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Tuner;

/**
 * Makes the dispatcher an experiment config asks for: an {@link AdvisorDispatcher} when it names an
 * advisor (as {@code advisor}, or as {@code tuner}, the way NNI 3's manager passes one), else a
 * {@link MsgDispatcher} over its tuner and optional assessor. Every manager, NNI's over a channel
 * or Tunekit's own runner in process, gets its dispatcher here, so both run the same code.
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
        if (catalog.namesAdvisor(config.tuner())) {
            // NNI 3's canonical config (what nnictl and NNI's Experiment API post) carries an advisor as "tuner"
            AlgorithmSpec t = config.tuner();
            AlgorithmSpec advisor = new AlgorithmSpec(AlgorithmKind.ADVISOR, t.name(), t.className(), t.codeDirectory(), t.arguments());
            if (config.assessor() != null) {
                LoggerFactory.getLogger(Dispatchers.class).warn("{} is an advisor, which stops trials early itself: the {} is not used",
                        advisor.describe(), config.assessor().describe());
            }
            return new AdvisorDispatcher(channel, catalog.create(advisor, Advisor.class), settings);
        }
        Tuner tuner = catalog.create(config.tuner(), Tuner.class);
        Assessor assessor = config.assessor() == null ? null : catalog.create(config.assessor(), Assessor.class);
        return new MsgDispatcher(channel, tuner, assessor, settings);
    }
}
