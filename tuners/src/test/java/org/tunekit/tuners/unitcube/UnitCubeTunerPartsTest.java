package org.tunekit.tuners.unitcube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Proposal;

/** The parts UnitCubeTuner is made of: the unit cube of a space, the history, the search for a new set, the Sobol points. */
class UnitCubeTunerPartsTest {
    private final SearchSpace space = SearchSpace.builder().choice("a", "x", "y").randint("b", 0, 3).build();
    private final UnitCodec codec = new UnitCodec(space);

    @Test
    void aSetReadBackFromARecordHasTheCanonicalFormAndUnitOfTheSetSuggested() {
        UnitCodec all = new UnitCodec(UnitCubeTunerContract.allTypes());
        SplittableRandom rng = new SplittableRandom(2);
        for (int i = 0; i < 200; i++) {
            Parameters suggested = all.decodeUnit(CandidatePoints.uniform(all.dimension(), rng));
            // a record keeps the values, not the objects: a fresh copy of the same map
            Parameters readBack = Parameters.of(new java.util.LinkedHashMap<>(suggested.values()));
            UnitCodec.Known a = all.canonical(suggested);
            UnitCodec.Known b = all.canonical(readBack);
            assertThat(b.parameters()).isEqualTo(a.parameters());
            assertThat(all.unitOf(b.parameters())).containsExactly(all.unitOf(a.parameters()));
        }
        assertThat(all.canonical(Parameters.of(Map.of("act", "swish")))).isNull();
    }

    @Test
    void proposalsOfKnownSetsAreRejectedThenEveryOtherSetIsFoundThenNoMore() throws Exception {
        ObservationHistory history = new ObservationHistory();
        UnitCodec.Known xs = codec.canonical(Parameters.of(Map.of("a", "x", "b", 0L)));
        history.observe(codec, xs.parameters(), 1.0);
        Set<Parameters> found = new HashSet<>();
        for (long id = 0; id < 5; id++) {
            // the tuner proposes only the known set: the search falls back to random points, then enumeration
            CandidateSearch.Found f = CandidateSearch.next(codec, history, attempt -> new double[] {0.1, 0.1},
                    new SplittableRandom(id));
            assertThat(f.key()).isNotEqualTo(xs.parameters());
            history.suggest(new Proposal(id, f.parameters(), f.unit()), f.key());
            found.add(f.key());
        }
        assertThat(found).hasSize(5);
        assertThat(history.size()).isEqualTo(6);
        assertThatThrownBy(() -> CandidateSearch.next(codec, history, attempt -> null, new SplittableRandom(9)))
                .isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void aSuggestionEndedWithoutAResultLeavesThePendingOnesButStaysKnown() {
        ObservationHistory history = new ObservationHistory();
        Parameters p = codec.canonical(Parameters.of(Map.of("a", "y", "b", 2L))).parameters();
        history.suggest(new Proposal(7, p, codec.unitOf(p)), p);
        assertThat(history.answer(7)).isNotNull();
        assertThat(history.pending()).isEmpty();
        assertThat(history.size()).isZero();
        assertThat(history.isKnown(p)).isTrue();
    }

    @Test
    void anImportedSetAnswersThePendingSuggestionOfTheSameSet() {
        ObservationHistory history = new ObservationHistory();
        Parameters p = codec.canonical(Parameters.of(Map.of("a", "y", "b", 1L))).parameters();
        history.suggest(new Proposal(3, p, codec.unitOf(p)), p);
        assertThat(history.answer(p).parameterId()).isEqualTo(3);
        assertThat(history.answer(p)).isNull();
    }

    @Test
    void aSobolPointIsTheSameWhateverWasDrawnBefore() {
        ScrambledSobol walked = new ScrambledSobol(3, 5);
        double[][] sequence = new double[20][];
        for (int i = 0; i < sequence.length; i++) {
            sequence[i] = walked.next();
        }
        ScrambledSobol jumping = new ScrambledSobol(3, 5);
        for (int i : new int[] {7, 3, 19, 0, 8, 8}) {
            assertThat(jumping.point(i)).containsExactly(sequence[i]);
        }
    }
}
