package org.tunekit.sdk.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SpiVersionTest {
    @Test
    void theCurrentVersionIsItsNumbers() {
        assertThat(SpiVersion.current()).isEqualTo(SpiVersion.of(SpiVersion.MAJOR, SpiVersion.MINOR));
        assertThat(SpiVersion.current()).hasToString(SpiVersion.CURRENT_TEXT);
        assertThat(SpiVersion.parse(" 1.12 ")).isEqualTo(SpiVersion.of(1, 12));
    }

    @Test
    void aPluginRunsOnTheSameMajorWithAMinorNoHigher() {
        SpiVersion running = SpiVersion.of(2, 3);
        assertThat(running.runs(SpiVersion.of(2, 0))).isTrue();
        assertThat(running.runs(SpiVersion.of(2, 3))).isTrue();
        assertThat(running.runs(SpiVersion.of(2, 4))).isFalse();
        assertThat(running.runs(SpiVersion.of(3, 0))).isFalse();
        assertThat(running.runs(SpiVersion.of(1, 9))).isFalse();
    }

    @Test
    void badTextIsNamed() {
        for (String bad : new String[] {"1", "1.x", "1.2.3", "", "-1.0", ".1"}) {
            assertThatThrownBy(() -> SpiVersion.parse(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "' is not an SPI version");
        }
    }
}
