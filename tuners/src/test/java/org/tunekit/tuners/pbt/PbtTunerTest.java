package org.tunekit.tuners.pbt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.ContractSpaces;

class PbtTunerTest {
    /** A space wide enough that a factor of 0.8 or 1.2 is never clipped. */
    static final SearchSpace WIDE = SearchSpace.builder().uniform("x", 1, 1e9).choice("opt", "sgd", "adam").build();

    @TempDir
    Path dir;

    private long nextId;

    private PbtTuner tuner(SearchSpace space, Map<String, ?> extra) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("seed", 5);
        args.put("all_checkpoint_dir", dir.toString());
        args.putAll(extra);
        PbtTuner t = new PbtTuner(ClassArguments.of(args), Map.of());
        t.updateSearchSpace(space);
        return t;
    }

    /** One handed-out set with its id. */
    record Out(long id, Parameters p) {
        Path load() {
            return Path.of((String) p.get(PbtTuner.LOAD_KEY));
        }

        Path save() {
            return Path.of((String) p.get(PbtTuner.SAVE_KEY));
        }

        int member() {
            return Integer.parseInt(save().getFileName().toString());
        }

        Map<String, Object> hyper() {
            Map<String, Object> m = new LinkedHashMap<>(p.values());
            m.remove(PbtTuner.LOAD_KEY);
            m.remove(PbtTuner.SAVE_KEY);
            return m;
        }
    }

    private List<Out> take(PbtTuner t, int n) throws NoMoreTrialsException {
        List<Out> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = nextId++;
            out.add(new Out(id, t.generateParameters(id)));
        }
        return out;
    }

    private static void report(PbtTuner t, Out o, double metric) {
        t.receiveTrialResult(new TrialResult(o.id(), o.p(), Metric.of(metric), false, "trial" + o.id()));
        t.trialEnd(o.id(), true);
    }

    /** Reports member i's metric as {@code metric[i]}. */
    private static void reportAll(PbtTuner t, List<Out> round, double... metric) {
        for (Out o : round) {
            report(t, o, metric[o.member()]);
        }
    }

    @Test
    void roundZeroLoadsFromAndSavesIntoEachMembersOwnEmptyDirectory() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 4));
        List<Out> round = take(t, 4);
        for (int i = 0; i < 4; i++) {
            Out o = round.get(i);
            assertThat(o.save()).isEqualTo(dir.resolve("0").resolve(Integer.toString(i))).isAbsolute();
            assertThat(o.load()).isEqualTo(o.save());
            assertThat(o.save()).isDirectory().isEmptyDirectory();
            assertThat(WIDE.violation(Parameters.of(o.hyper()))).isEmpty();
            assertThat(o.p().values().keySet()).containsExactly("x", "opt", PbtTuner.LOAD_KEY, PbtTuner.SAVE_KEY);
        }
        assertThat(round).extracting(o -> o.hyper().get("x")).doesNotHaveDuplicates();
    }

    @Test
    void requestsBeyondTheRoundWaitUntilEveryMemberHasReported() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 4));
        List<Out> round = take(t, 4);
        assertThatThrownBy(() -> t.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class)
                .hasMessageContaining("round 0").hasMessageContaining("0 of 4");
        report(t, round.get(2), 1);
        report(t, round.get(0), 2);
        report(t, round.get(3), 3);
        assertThat(t.generateMultipleParameters(List.of(100L, 101L))).isEmpty();
        assertThat(t.round()).isZero();
        report(t, round.get(1), 4);
        assertThat(t.round()).isEqualTo(1);
        List<Parameters> next = t.generateMultipleParameters(List.of(102L, 103L, 104L, 105L, 106L, 107L));
        assertThat(next).hasSize(4);
        assertThat(next).extracting(p -> p.get(PbtTuner.SAVE_KEY)).containsExactly(
                dir.resolve("1/0").toString(), dir.resolve("1/1").toString(), dir.resolve("1/2").toString(), dir.resolve("1/3").toString());
    }

    /** Like a manager that asks only when a trial ends: refused slots are filled by sends through the context. */
    @Test
    void refusedSlotsAreFilledThroughTheContextWhenTheNextRoundForms() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 4));
        List<Out> sent = new ArrayList<>();
        t.open(p -> {
            long id = nextId++;
            sent.add(new Out(id, p));
            return id;
        });
        List<Out> round0 = take(t, 4);
        for (int i = 0; i < 3; i++) {
            report(t, round0.get(i), i);
            long id = nextId++;
            assertThatThrownBy(() -> t.generateParameters(id)).isInstanceOf(NoMoreTrialsException.class);
        }
        assertThat(t.unfilled()).isEqualTo(3);
        assertThat(sent).isEmpty();
        report(t, round0.get(3), 3);
        assertThat(t.round()).isEqualTo(1);
        assertThat(sent).extracting(Out::id).containsExactly(7L, 8L, 9L);
        assertThat(sent).extracting(Out::save).containsExactly(dir.resolve("1/0"), dir.resolve("1/1"), dir.resolve("1/2"));
        assertThat(t.unfilled()).isZero();
        List<Out> last = take(t, 1);
        assertThat(last.get(0).save()).isEqualTo(dir.resolve("1/3"));
        assertThatThrownBy(() -> t.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class);

        // results of the sent members count like any other: the round completes and the next forms
        List<Out> round1 = new ArrayList<>(sent);
        round1.addAll(last);
        sent.clear();
        reportAll(t, round1, 1, 2, 3, 4);
        assertThat(t.round()).isEqualTo(2);
        assertThat(sent).extracting(Out::save).containsExactly(dir.resolve("2/0"));
    }

    @Test
    void aBatchCountsTheIdsItCouldNotFillAndTheSendsStopAtThePopulation() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 3));
        List<Long> sent = new ArrayList<>();
        t.open(p -> {
            sent.add(nextId);
            return nextId++;
        });
        List<Parameters> first = t.generateMultipleParameters(List.of(0L, 1L, 2L, 3L, 4L));
        nextId = 5;
        assertThat(first).hasSize(3);
        assertThat(t.unfilled()).isEqualTo(2);
        assertThat(t.generateMultipleParameters(List.of(5L, 6L, 7L))).isEmpty();
        nextId = 8;
        assertThat(t.unfilled()).isEqualTo(5);
        assertThatThrownBy(() -> t.generateParameters(8, "multiPhaseTrial")).isInstanceOf(NoMoreTrialsException.class);
        assertThat(t.unfilled()).as("a multi-phase request is not a trial slot").isEqualTo(5);
        for (long id = 0; id < 3; id++) {
            report(t, new Out(id, first.get((int) id)), id);
        }
        assertThat(sent).hasSize(3);
        assertThat(t.unfilled()).isEqualTo(2);
        assertThat(t.members()).allMatch(m -> m.state == PbtTuner.State.RUNNING);
    }

    @Test
    void withoutAContextRefusedSlotsStayUnfilled() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 2));
        List<Out> round0 = take(t, 2);
        assertThatThrownBy(() -> t.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class);
        reportAll(t, round0, 1, 2);
        assertThat(t.round()).isEqualTo(1);
        assertThat(t.members()).allMatch(m -> m.state == PbtTuner.State.WAITING);
    }

    @Test
    void theWorstFractionCopiesACheckpointOfTheBestAndPerturbsItsHyperParameters() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 10, "resample_probability", 0));
        List<Out> first = take(t, 10);
        reportAll(t, first, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9); // maximize: 8 and 9 are best, 0 and 1 worst
        List<Out> second = take(t, 10);
        for (Out o : second) {
            int i = o.member();
            assertThat(o.save()).isEqualTo(dir.resolve("1").resolve(Integer.toString(i)));
            if (i >= 2) {
                assertThat(o.load()).as("member %d continues", i).isEqualTo(dir.resolve("0").resolve(Integer.toString(i)));
                assertThat(o.hyper()).isEqualTo(first.get(i).hyper());
            } else {
                assertThat(o.load().getParent()).isEqualTo(dir.resolve("0"));
                int source = Integer.parseInt(o.load().getFileName().toString());
                assertThat(source).as("member %d copies one of the best two", i).isIn(8, 9);
                double was = (Double) first.get(source).hyper().get("x");
                double now = (Double) o.hyper().get("x");
                assertThat(Math.abs(now - was * 0.8) < 1e-6 * was || Math.abs(now - was * 1.2) < 1e-6 * was)
                        .as("x = %s is %s times 0.8 or 1.2", now, was).isTrue();
                assertThat(o.hyper().get("opt")).as("categoricals are kept without resampling").isEqualTo(first.get(source).hyper().get("opt"));
            }
        }
    }

    @Test
    void minimizeExploitsFromTheSmallestMetrics() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 4, "optimize_mode", "minimize"));
        List<Out> first = take(t, 4);
        reportAll(t, first, 5, 1, 7, 3); // best 1, worst 2
        List<Out> second = take(t, 4);
        assertThat(second.get(2).load()).isEqualTo(dir.resolve("0/1"));
        assertThat(second.get(0).load()).isEqualTo(dir.resolve("0/0"));
        assertThat(second.get(1).load()).isEqualTo(dir.resolve("0/1"));
        assertThat(second.get(3).load()).isEqualTo(dir.resolve("0/3"));
    }

    @Test
    void theOrderOfResultsDoesNotChangeTheNextRound() throws Exception {
        double[] metrics = {0.3, 0.9, 0.1, 0.5, 0.7, 0.2};
        PbtTuner inOrder = tuner(ContractSpaces.allTypes(), Map.of("population_size", 6));
        List<Out> a = take(inOrder, 6);
        reportAll(inOrder, a, metrics);
        List<Out> nextA = take(inOrder, 6);

        nextId = 0;
        PbtTuner shuffled = tuner(ContractSpaces.allTypes(), Map.of("population_size", 6));
        List<Out> b = take(shuffled, 6);
        for (int i : new int[] {4, 1, 5, 0, 3, 2}) {
            report(shuffled, b.get(i), metrics[i]);
        }
        List<Out> nextB = take(shuffled, 6);
        assertThat(nextB).extracting(Out::p).isEqualTo(nextA.stream().map(Out::p).toList());
        assertThat(nextA.get(2).load()).as("member 2 was worst, member 1 best").isEqualTo(dir.resolve("0/1"));
    }

    @Test
    void aFailedMemberIsDrawnAfreshAndStartsFromAnEmptyCheckpoint() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 4, "fraction", 0));
        List<Out> first = take(t, 4);
        report(t, first.get(0), 1);
        t.trialEnd(first.get(1).id(), false); // failed, no result
        t.receiveTrialResult(new TrialResult(first.get(2).id(), first.get(2).p(), Metric.of(Double.NaN), false, "t2"));
        t.trialEnd(first.get(2).id(), true); // NaN counts as failed
        assertThat(t.round()).isZero();
        t.trialEnd(first.get(3).id(), true); // succeeded without a final result: failed too
        assertThat(t.round()).isEqualTo(1);
        List<Out> second = take(t, 4);
        assertThat(second.get(0).load()).isEqualTo(dir.resolve("0/0"));
        assertThat(second.get(0).hyper()).isEqualTo(first.get(0).hyper());
        for (int i = 1; i < 4; i++) {
            assertThat(second.get(i).load()).as("member %d starts afresh", i).isEqualTo(second.get(i).save()).isEqualTo(dir.resolve("1/" + i));
            assertThat(second.get(i).hyper()).isNotEqualTo(first.get(i).hyper());
            assertThat(WIDE.violation(Parameters.of(second.get(i).hyper()))).isEmpty();
        }
    }

    @Test
    void aFinalResultFollowedByAFailedEndStillCounts() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 2, "fraction", 0));
        List<Out> first = take(t, 2);
        t.receiveTrialResult(new TrialResult(first.get(0).id(), first.get(0).p(), Metric.of(1), false, "t0"));
        t.trialEnd(first.get(0).id(), false);
        report(t, first.get(1), 2);
        List<Out> second = take(t, 2);
        assertThat(second.get(0).load()).isEqualTo(dir.resolve("0/0"));
        assertThat(second.get(0).hyper()).isEqualTo(first.get(0).hyper());
    }

    @Test
    void resultsOfOtherIdsAreIgnored() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 2));
        List<Out> first = take(t, 2);
        t.receiveTrialResult(new TrialResult(77, first.get(0).p(), Metric.of(1), true, "custom"));
        t.trialEnd(77, false);
        report(t, first.get(0), 1);
        report(t, first.get(0), 5); // a second result for the same member
        assertThat(t.round()).isZero();
        report(t, first.get(1), 2);
        assertThat(t.round()).isEqualTo(1);
        report(t, first.get(1), 2); // a result from the previous round
        assertThat(t.members()).allMatch(m -> m.state == PbtTuner.State.WAITING);
    }

    @Test
    void threeRoundsOnEveryTypeAndNestedSpacesStayInsideTheSpace() throws Exception {
        for (SearchSpace space : List.of(ContractSpaces.allTypes(), ContractSpaces.nested())) {
            PbtTuner t = tuner(space, Map.of("population_size", 6, "resample_probability", 0.3));
            for (int r = 0; r < 4; r++) {
                List<Out> round = take(t, 6);
                for (Out o : round) {
                    assertThat(space.violation(Parameters.of(o.hyper()))).as("round %d: %s", r, o.hyper()).isEmpty();
                    assertThat(o.save()).isEqualTo(dir.resolve(r + "/" + o.member()));
                }
                reportAll(t, round, 1, 2, 3, 4, 5, 6);
            }
        }
    }

    @Test
    void theSameSeedGivesTheSamePopulationAndAnotherSeedAnother() throws Exception {
        List<Parameters> a = run(5);
        List<Parameters> b = run(5);
        List<Parameters> c = run(6);
        assertThat(a).isEqualTo(b);
        assertThat(c).isNotEqualTo(a);
    }

    private List<Parameters> run(long seed) throws Exception {
        PbtTuner t = tuner(ContractSpaces.allTypes(), Map.of("population_size", 4, "seed", seed));
        List<Parameters> all = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            List<Out> round = take(t, 4);
            round.forEach(o -> all.add(o.p()));
            reportAll(t, round, 4, 1, 3, 2);
        }
        return all;
    }

    @Test
    void aCheckpointContinuesTheSameRounds(@TempDir Path state) throws Exception {
        PbtTuner original = tuner(ContractSpaces.nested(), Map.of("population_size", 4));
        List<Out> first = take(original, 4);
        report(original, first.get(1), 0.5);
        report(original, first.get(3), 0.25);
        original.saveCheckpoint(state);
        assertThat(Files.readAllLines(state.resolve(PbtTuner.CHECKPOINT_FILE)).get(0)).isEqualTo("tunekit-pbt-state 1");

        // the experiment's class arguments again, but another seed: the checkpoint's seed is used
        PbtTuner restored = new PbtTuner(ClassArguments.of(Map.of("seed", 99, "population_size", 4)), Map.of());
        restored.loadCheckpoint(state);
        restored.updateSearchSpace(ContractSpaces.nested());
        // members 0 and 2 were running: they are handed out again, exactly as they were
        List<Out> again = take(restored, 2);
        assertThat(again.get(0).p()).isEqualTo(first.get(0).p());
        assertThat(again.get(1).p()).isEqualTo(first.get(2).p());
        assertThatThrownBy(() -> restored.generateParameters(1000)).isInstanceOf(NoMoreTrialsException.class);

        report(original, first.get(0), 0.75);
        report(original, first.get(2), 0.125);
        report(restored, again.get(0), 0.75);
        report(restored, again.get(1), 0.125);
        for (int r = 1; r < 3; r++) {
            List<Out> a = take(original, 4);
            List<Out> b = take(restored, 4);
            assertThat(b).extracting(Out::p).as("round %d", r).isEqualTo(a.stream().map(Out::p).toList());
            reportAll(original, a, 3, 1, 4, 2);
            reportAll(restored, b, 3, 1, 4, 2);
        }
    }

    @Test
    void aCheckpointBeforeTheFirstRoundKeepsTheHints(@TempDir Path state) throws Exception {
        PbtTuner original = tuner(WIDE, Map.of("population_size", 4));
        original.importData(List.of(new ImportedTrial(Parameters.of(Map.of("x", 12.5, "opt", "adam")), Metric.of(3))));
        original.saveCheckpoint(state);
        PbtTuner restored = new PbtTuner(ClassArguments.of(Map.of("all_checkpoint_dir", dir.toString(), "population_size", 4)), Map.of());
        restored.loadCheckpoint(state);
        restored.updateSearchSpace(WIDE);
        assertThat(take(restored, 4)).extracting(Out::p).isEqualTo(take(original, 4).stream().map(Out::p).toList());
    }

    @Test
    void aDamagedCheckpointIsReportedWithItsLine(@TempDir Path state) throws Exception {
        Files.writeString(state.resolve(PbtTuner.CHECKPOINT_FILE), "tunekit-pbt-state 1\nseed 1\nround 0\nmember 0 DONE x\n");
        PbtTuner t = new PbtTuner(ClassArguments.of(Map.of("seed", 1)), Map.of());
        assertThatThrownBy(() -> t.loadCheckpoint(state)).isInstanceOf(IOException.class).hasMessageContaining("line 4");
        Files.writeString(state.resolve(PbtTuner.CHECKPOINT_FILE), "something else\n");
        assertThatThrownBy(() -> t.loadCheckpoint(state)).isInstanceOf(IOException.class).hasMessageContaining("not a PBTTuner checkpoint");
    }

    @Test
    void resultsImportedBeforeTheFirstRoundSeedItsBestMembers() throws Exception {
        PbtTuner t = new PbtTuner(ClassArguments.of(Map.of("seed", 1, "population_size", 4, "all_checkpoint_dir", dir.toString())), Map.of());
        t.updateSearchSpace(WIDE);
        t.importData(List.of(
                new ImportedTrial(Parameters.of(Map.of("x", 10.0, "opt", "sgd")), Metric.of(1)),
                new ImportedTrial(Parameters.of(Map.of("x", 20.0, "opt", "adam", PbtTuner.LOAD_KEY, "/a", PbtTuner.SAVE_KEY, "/b")), Metric.of(5)),
                new ImportedTrial(Parameters.of(Map.of("x", -3.0, "opt", "sgd")), Metric.of(9)), // outside the space
                new ImportedTrial(Parameters.of(Map.of("x", 30.0, "opt", "sgd")), Metric.of(3))));
        List<Out> first = take(t, 4);
        assertThat(first.get(0).hyper()).isEqualTo(Map.of("x", 20.0, "opt", "adam"));
        assertThat(first.get(1).hyper()).isEqualTo(Map.of("x", 30.0, "opt", "sgd"));
        assertThat(first.get(2).hyper()).isNotIn(Map.of("x", 10.0, "opt", "sgd"));
        assertThat(first.get(0).load()).isEqualTo(dir.resolve("0/0"));
    }

    @Test
    void anImportedResultOfAnUnsettledMemberSettlesIt() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 2));
        List<Out> first = take(t, 2);
        report(t, first.get(0), 1);
        t.importData(List.of(
                new ImportedTrial(Parameters.of(Map.of("x", 1.0, "opt", "sgd")), Metric.of(7)),
                new ImportedTrial(first.get(1).p(), Metric.of(2))));
        assertThat(t.round()).isEqualTo(1);
        List<Out> second = take(t, 2);
        assertThat(second.get(0).load()).as("member 1 was better").isEqualTo(dir.resolve("0/1"));
    }

    @Test
    void aChangedSpaceRedrawsWaitingMembersThatNoLongerFit() throws Exception {
        PbtTuner t = tuner(WIDE, Map.of("population_size", 3));
        take(t, 1);
        SearchSpace narrower = SearchSpace.builder().uniform("x", 1, 2).choice("opt", "sgd", "adam").build();
        t.updateSearchSpace(narrower);
        for (Out o : take(t, 2)) {
            assertThat(narrower.violation(Parameters.of(o.hyper()))).isEmpty();
        }
    }

    @Test
    void aSpaceMayNotUseTheDirectoryKeys() {
        PbtTuner t = new PbtTuner(ClassArguments.of(Map.of("seed", 1)), Map.of());
        assertThatThrownBy(() -> t.updateSearchSpace(SearchSpace.builder().choice(PbtTuner.SAVE_KEY, "a").build()))
                .hasMessageContaining("'save_checkpoint_dir'");
    }

    @Test
    void classArgumentsHaveNnisDefaultsAndAreChecked() {
        PbtSettings s = PbtSettings.from(ClassArguments.of(Map.of("seed", 3)), Map.of(PbtSettings.ENV_CHECKPOINT_DIRECTORY, "/exp/checkpoint"));
        assertThat(s).isEqualTo(new PbtSettings(OptimizeMode.MAXIMIZE, Path.of("/exp/checkpoint/pbt"), 10, 0.2, 0.25, 0.2, 3));
        assertThat(s.exploitCount(10)).isEqualTo(2);
        assertThat(s.exploitCount(4)).isEqualTo(1);
        assertThat(s.exploitCount(8)).isEqualTo(2);
        assertThat(PbtSettings.from(ClassArguments.of(Map.of("seed", 3)), Map.of()).checkpointRoot()).isNull();
        assertThat(PbtSettings.from(ClassArguments.of(Map.of("all_checkpoint_dir", "rel/dir", "seed", 1)), Map.of()).checkpointRoot())
                .isEqualTo(Path.of("rel/dir").toAbsolutePath());
        assertThat(PbtSettings.from(ClassArguments.of(Map.of("fraction", 0.5, "seed", 1)), Map.of()).exploitCount(3)).isEqualTo(1);
        assertThat(PbtSettings.from(ClassArguments.of(Map.of("fraction", 0, "seed", 1)), Map.of()).exploitCount(10)).isZero();

        for (Map<String, Object> bad : List.<Map<String, Object>>of(Map.of("population_size", 1), Map.of("factor", 1),
                Map.of("factor", -0.1), Map.of("fraction", 0.6), Map.of("resample_probability", 1.5),
                Map.of("optimize_mode", "up"), Map.of("all_checkpoint_dir", " "), Map.of("populaton_size", 4))) {
            assertThatThrownBy(() -> PbtSettings.from(ClassArguments.of(bad), Map.of())).as(bad.toString())
                    .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining(bad.keySet().iterator().next());
        }
    }

    @Test
    void withoutADirectoryATemporaryOneIsMadeOnFirstUse() throws Exception {
        PbtTuner t = new PbtTuner(ClassArguments.of(Map.of("seed", 1, "population_size", 2)), Map.of());
        t.updateSearchSpace(WIDE);
        Path save = Path.of((String) t.generateParameters(0).get(PbtTuner.SAVE_KEY));
        try {
            assertThat(save).isDirectory().isAbsolute();
            assertThat(save.getParent().getParent().getFileName().toString()).startsWith("tunekit-pbt-");
        } finally {
            try (Stream<Path> walk = Files.walk(save.getParent().getParent())) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
