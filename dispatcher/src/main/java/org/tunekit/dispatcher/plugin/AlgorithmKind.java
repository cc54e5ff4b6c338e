package org.tunekit.dispatcher.plugin;

import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.spi.AlgorithmProvider;
import org.tunekit.sdk.spi.AssessorProvider;
import org.tunekit.sdk.spi.TunerProvider;

/** The three kinds of algorithm, with their plugin and provider interfaces. */
public enum AlgorithmKind {
    /** A {@link Tuner}. */
    TUNER(Tuner.class, TunerProvider.class),
    /** An {@link Assessor}. */
    ASSESSOR(Assessor.class, AssessorProvider.class),
    /** An {@link Advisor}. */
    ADVISOR(Advisor.class, AdvisorProvider.class);

    private final Class<?> pluginType;
    private final Class<? extends AlgorithmProvider> providerType;

    AlgorithmKind(Class<?> pluginType, Class<? extends AlgorithmProvider> providerType) {
        this.pluginType = pluginType;
        this.providerType = providerType;
    }

    /** The interface an algorithm of this kind implements. */
    public Class<?> pluginType() {
        return pluginType;
    }

    /** The provider interface found with {@code ServiceLoader}. */
    public Class<? extends AlgorithmProvider> providerType() {
        return providerType;
    }

    /** The kind's name in messages: {@code tuner}, {@code assessor}, {@code advisor}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
