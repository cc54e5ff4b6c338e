package org.tunekit.assessors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.spi.AssessorProvider;

class ProvidersTest {

    @Test
    void everyBuiltInIsRegisteredWithADescription() {
        List<String> names = new ArrayList<>();
        for (AssessorProvider p : ServiceLoader.load(AssessorProvider.class)) {
            names.add(p.name());
            assertThat(p.description()).as(p.name()).isNotBlank();
        }
        assertThat(names).contains("Curvefitting", "Percentile", "Threshold", "Patience", "SuccessiveHalving");
    }
}
