/**
 * Tuning inside a JVM program: a {@link org.tunekit.study.Study} asks a built-in tuner (or any tuner on the class path,
 * by its name) for parameters, the program evaluates them and tells the results, and an optional assessor prunes
 * trials whose intermediate values do not promise well.
 *
 * <pre>{@code
 * try (Study study = Study.named("gbt")
 *         .space(SearchSpace.builder().loguniform("eta", 1e-3, 0.3).randint("depth", 2, 10).build())
 *         .tuner("TPE").seed(7).minimize()
 *         .assessor("Medianstop")
 *         .storage(Storage.sqlite(Path.of("runs/gbt")))     // tunekit results runs/gbt shows it
 *         .open()) {
 *     study.optimize(trial -> {
 *         double loss = Double.NaN;
 *         for (int round = 1; round <= 100; round++) {
 *             loss = boostOneRound(trial.getDouble("eta"), trial.getInt("depth"));
 *             trial.report(round, loss);
 *             if (trial.shouldPrune()) {
 *                 throw new TrialPrunedException();
 *             }
 *         }
 *         return loss;
 *     }, OptimizeOptions.trials(60).threads(2));
 *     System.out.println(study.bestTrial());
 * }
 * }</pre>
 *
 * <p>Where the loop is the caller's, {@link org.tunekit.study.Study#ask()} hands out a trial and
 * {@link org.tunekit.study.Study#tell} ends it; {@link org.tunekit.study.Study#enqueue} runs known parameters first.
 * A study's trials live in memory, in an experiment folder that {@code tunekit results} and {@code tunekit view}
 * read, or in PostgreSQL, shared by workers on several machines ({@link org.tunekit.study.Storage}).
 *
 * <p>The tuners and assessors are those of experiment configs, with the same names and class arguments, and the
 * same seed with the same results gives the same suggestions as under {@code tunekit run} or NNI's manager.
 */
package org.tunekit.study;
