package org.tunekit.tuners.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.TunerProvider;

class ProvidersTest {
    private static final java.util.Set<String> MULTI_OBJECTIVE = java.util.Set.of("MOTPE", "NSGA2");

    @Test
    void builtInTunersAreRegisteredUnderNnisNames() {
        var providers = ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::get).toList();
        assertThat(providers).extracting(TunerProvider::name).contains("Random", "GridSearch", "BatchTuner");
        for (TunerProvider p : providers) {
            assertThat(p.description()).as(p.name()).isNotBlank().doesNotContain("\n");
            // multi-objective tuners need their objectives; every other tuner runs on its defaults
            ClassArguments args = MULTI_OBJECTIVE.contains(p.name()) ? ClassArguments.of(java.util.Map.of("objectives", java.util.List.of(
                    java.util.Map.of("metric", "a", "mode", "minimize"), java.util.Map.of("metric", "b", "mode", "maximize"))))
                    : ClassArguments.empty();
            assertThat(p.create(args)).as(p.name()).isNotNull();
        }
    }
}
