package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.katib.api.AlgorithmSetting;

/** Katib's {@code cmaes} starts with sigma 0.1 and a population set for the experiment's number of parameters. */
class KatibCmaesDefaultsTest {
    private static final Algorithms ALGORITHMS = new Algorithms(AlgorithmCatalog.discover(List.of()));

    private static Algorithms.Recipe cmaes(int parameters, AlgorithmSetting... settings) {
        return Algorithms.forParameters(ALGORITHMS.resolve("cmaes", List.of(settings)), parameters);
    }

    @Test
    void thePopulationIsTwoBelowCmaEsUsualOneAndAtLeastFour() {
        assertThat(cmaes(1).arguments()).containsEntry("popsize", 4L).containsEntry("sigma0", 0.1);
        assertThat(cmaes(2).arguments()).containsEntry("popsize", 4L);
        assertThat(cmaes(6).arguments()).containsEntry("popsize", 7L);
        assertThat(cmaes(10).arguments()).containsEntry("popsize", 8L);
        assertThat(cmaes(20).arguments()).containsEntry("popsize", 10L);
        assertThat(cmaes(2, AlgorithmSetting.newBuilder().setName("sigma").setValue("0.3").build()).arguments())
                .containsEntry("sigma0", 0.3).containsEntry("popsize", 4L);
    }

    @Test
    void otherRecipesAreLeftAsTheyAre() {
        Algorithms.Recipe tpe = ALGORITHMS.resolve("tpe", List.of());
        assertThat(Algorithms.forParameters(tpe, 10)).isSameAs(tpe);
        Algorithms.Recipe own = ALGORITHMS.resolve("CMAES", List.of(AlgorithmSetting.newBuilder().setName("popsize").setValue("12").build()));
        assertThat(Algorithms.forParameters(own, 10)).isSameAs(own);
        Algorithms.Recipe ownDefault = ALGORITHMS.resolve("CMAES", List.of());
        assertThat(Algorithms.forParameters(ownDefault, 10).arguments()).doesNotContainKey("popsize");
    }
}
