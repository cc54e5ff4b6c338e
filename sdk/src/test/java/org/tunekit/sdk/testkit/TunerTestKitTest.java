package org.tunekit.sdk.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

class TunerTestKitTest {

    private static final Map<String, Object> SEED = Map.of("seed", 7);

    private static TunerTestKit kit(java.util.function.Function<ClassArguments, Tuner> factory) {
        return TunerTestKit.forTuner(factory).withArguments(SEED);
    }

    @Test
    void aCorrectRandomTunerPassesEveryCheck() {
        kit(SampleTuners.RandomTuner::new).checkContract();
    }

    @Test
    void aCorrectTunerPassesOnAGivenSpaceToo() {
        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).choice("c", "a", "b").build();
        kit(SampleTuners.RandomTuner::new).withSpace(space).checkContract();
    }

    @Test
    void providerNameAppearsInFailures() {
        TunerProvider provider = new TunerProvider() {
            @Override public String name() { return "OutOfBounds"; }
            @Override public Tuner create(ClassArguments arguments) { return new SampleTuners.OutOfSpaceTuner(arguments); }
        };
        assertThatThrownBy(() -> TunerTestKit.forProvider(provider).withArguments(SEED).check(Check.IN_SPACE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("tuner 'OutOfBounds'");
    }

    @Test
    void outOfSpaceValuesFailInSpaceNamingTheParameter() {
        assertThatThrownBy(() -> kit(SampleTuners.OutOfSpaceTuner::new).check(Check.IN_SPACE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check IN_SPACE")
                .hasMessageContaining("tuner 'OutOfSpaceTuner'")
                .hasMessageContaining("space 'all-types'")
                .hasMessageContaining("outside the search space")
                .hasMessageContaining("parameter 'ratio' (uniform): 3.0 is not a possible value");
    }

    @Test
    void outOfSpaceValuesInsideNestedChoicesAreCaught() {
        // the nested space's only top-level uniform is 'momentum' in [0, 0.99]
        assertThatThrownBy(() -> kit(SampleTuners.OutOfSpaceTuner::new).withSpace(ContractSpaces.nested()).check(Check.BATCH))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check BATCH")
                .hasMessageContaining("parameter 'momentum' (uniform): 1.99 is not a possible value");
    }

    @Test
    void aTunerThatIsNotSeededFailsTheSeedCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.UnseededTuner::new).check(Check.SEED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check SEED")
                .hasMessageContaining("two instances created with the same arguments")
                .hasMessageContaining("suggested different parameters for parameter id 0");
    }

    @Test
    void aTunerThatIgnoresItsSeedArgumentFailsTheSeedCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.FixedSeedTuner::new).check(Check.SEED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check SEED")
                .hasMessageContaining("seeds 7 and 8 gave the same 10 suggestions")
                .hasMessageContaining("ignores its 'seed' argument");
    }

    @Test
    void aTunerWithoutSeedArgumentIsOnlyCheckedForReproducibility() {
        TunerTestKit.forTuner(SampleTuners.FixedSeedTuner::new).check(Check.SEED);
    }

    @Test
    void duplicatesInABatchFailTheBatchCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.BatchDuplicatingTuner::new).check(Check.BATCH))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check BATCH")
                .hasMessageContaining("suggests the same parameters for parameter ids 0 and 1");
    }

    @Test
    void aCheckpointThatLosesStateFailsTheResumeCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.ForgetfulTuner::new).check(Check.RESUME))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check RESUME")
                .hasMessageContaining("for parameter id 5 the uninterrupted instance suggested")
                .hasMessageContaining("but the resumed one")
                .hasMessageContaining("does not hold all of its state");
    }

    @Test
    void aTunerWithoutACheckpointThatRebuildsItselfFromImportedResultsPassesTheResumeCheck() {
        kit(SampleTuners.ReplayedTuner::new).check(Check.RESUME);
    }

    @Test
    void aTunerWithoutACheckpointThatIgnoresImportedResultsSuggestsThemAgainAndFailsTheResumeCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.ImportIgnoringTuner::new).check(Check.RESUME))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check RESUME")
                .hasMessageContaining("on space 'finite'")
                .hasMessageContaining("again, which parameter id")
                .hasMessageContaining("the resumed instance was given");
    }

    @Test
    void aTunerThatDrawsFromOneRunningStreamFailsTheResumeCheck() {
        assertThatThrownBy(() -> kit(SampleTuners.StreamReplayedTuner::new).check(Check.RESUME))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check RESUME")
                .hasMessageContaining("other than the seed and the parameter id");
    }

    @Test
    void samplingWithReplacementFailsDuplicatesAndExhaustion() {
        TunerTestKit k = kit(SampleTuners.WithReplacementTuner::new);
        assertThatThrownBy(() -> k.check(Check.NO_DUPLICATES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check NO_DUPLICATES")
                .hasMessageContaining("got the same parameters");
        assertThatThrownBy(() -> k.check(Check.EXHAUSTION))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check EXHAUSTION");
    }

    @Test
    void checkContractReportsEveryFailedCheckAndHonoursSkips() {
        TunerTestKit k = kit(SampleTuners.WithReplacementTuner::new);
        assertThatThrownBy(k::checkContract)
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("3 of 7 contract checks failed")
                .hasMessageContaining("check RESUME")
                .hasMessageContaining("check NO_DUPLICATES")
                .hasMessageContaining("check EXHAUSTION");
        k.skip(Check.NO_DUPLICATES, "samples with replacement by design")
                .skip(Check.EXHAUSTION, "never runs out by design")
                .skip(Check.RESUME, "draws from one running stream")
                .checkContract();
    }

    @Test
    void aTunerRefusingSomeTypesSkipsThoseSpaces() {
        java.util.function.Function<ClassArguments, Tuner> noNormals = args -> new SampleTuners.RandomTuner(args) {
            @Override
            public void updateSearchSpace(SearchSpace s) {
                s.allParameters().forEach(p -> {
                    if (p.nniType().contains("normal")) {
                        throw new IllegalArgumentException("normal types are not supported: " + p.path());
                    }
                });
                super.updateSearchSpace(s);
            }
        };
        assertThatThrownBy(() -> kit(noNormals).check(Check.IN_SPACE))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("space 'all-types'")
                .hasMessageContaining("the tuner threw from updateSearchSpace")
                .hasMessageContaining("normal types are not supported: shift");
        kit(noNormals).skipSpace("all-types", "normal types are not supported").checkContract();
        assertThatThrownBy(() -> kit(noNormals).skipSpace("all types", "typo"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no contract space 'all types'");
    }

    @Test
    void skipReasonsAppearWithFailures() {
        assertThatThrownBy(() -> kit(SampleTuners.WithReplacementTuner::new).skip(Check.SEED, "not relevant here").checkContract())
                .hasMessageContaining("(skipped SEED: not relevant here)");
    }

    @Test
    void skippingNeedsAReason() {
        assertThatThrownBy(() -> kit(SampleTuners.RandomTuner::new).skip(Check.SEED, " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a reason");
    }

    @Test
    void aThrowingTunerFailsWithTheCallThatThrew() {
        assertThatThrownBy(() -> kit(args -> new SampleTuners.RandomTuner(args) {
            @Override
            public void importData(List<org.tunekit.sdk.ImportedTrial> trials) {
                throw new UnsupportedOperationException("no import");
            }
        }).check(Check.IMPORT_DATA))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("check IMPORT_DATA")
                .hasMessageContaining("the tuner threw from importData(8 trials): java.lang.UnsupportedOperationException: no import");
    }

    @Test
    void argumentsTheTunerRejectsFailWithTheArguments() {
        assertThatThrownBy(() -> TunerTestKit.forTuner(SampleTuners.RandomTuner::new)
                .withArguments(Map.of("sede", 1)).check(Check.SEED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("creating the tuner with arguments {sede=1} failed")
                .hasMessageContaining("unknown class argument 'sede'");
    }

    @Test
    void runDrivesTheTunerSequentially() {
        SearchSpace space = SearchSpace.builder().uniform("x", -2, 2).build();
        TunerRun run = kit(SampleTuners.RandomTuner::new).withSpace(space)
                .run(Objective.minimize(p -> Math.pow(p.getDouble("x") - 1, 2)), 40);
        assertThat(run.history()).hasSize(40);
        assertThat(run.history()).extracting(TunerRun.Trial::parameterId).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, 40).boxed().toList());
        assertThat(run.exhausted()).isFalse();
        double min = run.history().stream().mapToDouble(TunerRun.Trial::value).min().orElseThrow();
        assertThat(run.best().value()).isEqualTo(min);
        assertThat(run.best().value()).isLessThan(0.05);
        double[] best = run.bestSoFar();
        for (int i = 1; i < best.length; i++) {
            assertThat(best[i]).isLessThanOrEqualTo(best[i - 1]);
        }
        assertThat(best[best.length - 1]).isEqualTo(min);
    }

    @Test
    void runInBatchesUsesGenerateMultipleParametersAndReportsBeforeTheNextBatch() {
        List<String> calls = new java.util.ArrayList<>();
        SearchSpace space = SearchSpace.builder().randint("n", 0, 1000).build();
        TunerRun run = kit(args -> new SampleTuners.RandomTuner(args) {
            @Override
            public void updateSearchSpace(SearchSpace s) {
                calls.add("space");
                super.updateSearchSpace(s);
            }

            @Override
            public List<org.tunekit.sdk.Parameters> generateMultipleParameters(List<Long> ids) {
                calls.add("batch" + ids);
                return super.generateMultipleParameters(ids);
            }

            @Override
            public void receiveTrialResult(org.tunekit.sdk.TrialResult r) {
                super.receiveTrialResult(r);
                calls.add("result" + r.parameterId() + ":" + r.trialJobId());
            }

            @Override
            public void trialEnd(long id, boolean success) {
                calls.add("end" + id + ":" + success);
            }
        }).withSpace(space).withBatchSize(3).run(Objective.maximize(p -> p.getLong("n")), 5);
        assertThat(run.history()).hasSize(5);
        assertThat(calls).containsExactly("space", "batch[0, 1, 2]",
                "result0:trial00000", "end0:true", "result1:trial00001", "end1:true", "result2:trial00002", "end2:true",
                "batch[3, 4]", "result3:trial00003", "end3:true", "result4:trial00004", "end4:true");
        assertThat(run.best().value()).isEqualTo(run.history().stream().mapToDouble(TunerRun.Trial::value).max().orElseThrow());
    }

    @Test
    void runStopsWhenTheSpaceIsExhausted() {
        TunerRun run = kit(SampleTuners.RandomTuner::new).withSpace(ContractSpaces.tinyFinite())
                .run(Objective.minimize(p -> p.getLong("bit")), 10);
        assertThat(run.exhausted()).isTrue();
        assertThat(run.history()).hasSize(4);
        Set<Object> distinct = new HashSet<>();
        run.history().forEach(t -> distinct.add(t.parameters()));
        assertThat(distinct).hasSize(4);
        assertThat(run.best().value()).isZero();
    }

    @Test
    void runRejectsOutOfSpaceSuggestions() {
        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).build();
        assertThatThrownBy(() -> kit(SampleTuners.OutOfSpaceTuner::new).withSpace(space)
                .run(Objective.minimize(p -> p.getDouble("x")), 3))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("parameter id 0 is outside the search space: parameter 'x' (uniform): 2.0");
    }

    @Test
    void runNeedsASpace() {
        assertThatThrownBy(() -> kit(SampleTuners.RandomTuner::new).run(Objective.minimize(p -> 0), 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("withSpace");
    }

    @Test
    void contractSpacesCoverEveryTypeAndNesting() {
        Set<String> types = new HashSet<>();
        ContractSpaces.all().values().forEach(s -> s.allParameters().forEach(p -> types.add(p.nniType())));
        assertThat(types).containsExactlyInAnyOrderElementsOf(SearchSpace.TYPES);
        assertThat(ContractSpaces.nested().allParameters()).extracting(org.tunekit.sdk.space.Parameter::path)
                .contains("model/linear/penalty/l1/alpha", "model/tree/depth");
        assertThat(ContractSpaces.finite().size()).hasValue(24);
        assertThat(ContractSpaces.tinyFinite().size()).hasValue(4);
        assertThat(ContractSpaces.allTypes().size()).isEmpty();
    }
}
