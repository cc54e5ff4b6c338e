package org.tunekit.tuners.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.spi.TunerProvider;

class ProvidersTest {
    @Test
    void builtInTunersAreRegisteredUnderNnisNames() {
        var providers = ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::get).toList();
        assertThat(providers).extracting(TunerProvider::name).contains("Random", "GridSearch", "BatchTuner");
        for (TunerProvider p : providers) {
            assertThat(p.description()).as(p.name()).isNotBlank().doesNotContain("\n");
            assertThat(p.create(ClassArguments.empty())).as(p.name()).isNotNull();
        }
    }
}
