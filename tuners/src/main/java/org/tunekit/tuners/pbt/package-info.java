/**
 * {@code PBTTuner}: population-based training (Jaderberg et al., "Population Based Training of Neural
 * Networks", 2017) in synchronous rounds, with NNI's class arguments and NNI's checkpoint-directory
 * contract.
 *
 * <h2>The contract with trials</h2>
 *
 * <p>Every parameter set the tuner hands out holds the search space's parameters plus two keys that
 * are not in the space, both absolute paths:
 * <ul>
 *   <li>{@code save_checkpoint_dir}: {@code <all_checkpoint_dir>/<epoch>/<member index>}, where the
 *       epoch is the round, from 0, and the member index runs from 0 to {@code population_size - 1};</li>
 *   <li>{@code load_checkpoint_dir}: in round 0 the member's own (empty) directory, the same as
 *       {@code save_checkpoint_dir}; later, the directory of round {@code epoch - 1} whose model the
 *       member continues from (its own, or the one it copied).</li>
 * </ul>
 * A trial loads its model from {@code load_checkpoint_dir} (when that holds one), trains one "epoch"
 * (whatever amount of training a round stands for), saves its model into {@code save_checkpoint_dir}
 * and reports a final metric. The tuner creates both directories before it hands the set out; the
 * trials must see the same file system (local training, or a shared mount). {@code all_checkpoint_dir}
 * should be a directory of its own for each experiment.
 *
 * <h2>Rounds</h2>
 *
 * <p>Round 0 is {@code population_size} draws from the prior. When every member of a round has
 * settled (reported a final metric, or ended without one), the next round is formed at once:
 * <ul>
 *   <li>Members with a metric are ranked by it ({@code optimize_mode}; ties by member index). The
 *       worst {@code k} members, {@code k = ceil(fraction * population_size)} (at least 1 unless
 *       {@code fraction} is 0, at most half of the ranked members), <em>exploit</em>: each copies the
 *       hyper-parameters and the saved checkpoint (as its {@code load_checkpoint_dir}) of a member drawn
 *       at random from the best {@code k}, then <em>explores</em>: every parameter is drawn afresh from
 *       its prior with probability {@code resample_probability}; otherwise a number is multiplied by
 *       {@code 1 - factor} or {@code 1 + factor}, clipped into its range and quantised, and a categorical
 *       value stays, the sub-parameters of a nested option being explored the same way (details in
 *       {@code Explorer}).</li>
 *   <li>The other members continue with their own hyper-parameters from their own checkpoint.</li>
 *   <li>A member that failed (its trial ended without a final metric, or reported NaN) is drawn
 *       afresh from the prior and starts from an empty checkpoint: its {@code load_checkpoint_dir} is
 *       its new {@code save_checkpoint_dir}, as in round 0. A final metric followed by a failed end
 *       still counts.</li>
 * </ul>
 * The randomness of a round depends only on {@code seed} and the round number, so the order in
 * which results arrive does not matter, and the same seed and results give the same population.
 * Results for parameter ids that are not members of the current round (customized trials, trials of
 * earlier rounds) are ignored.
 *
 * <h2>When members are not ready: NO, and sending them later</h2>
 *
 * <p>The tuner hands out the waiting members of the current round, in member order, one per
 * parameter id. When it is asked for more than are waiting, the ones it has are sent as {@code TR}
 * and the dispatcher answers the rest with one {@code NO} (a single request: {@code
 * NoMoreTrialsException}; a batch: fewer sets than ids). The ids of that request are spent, and the
 * tuner counts them as <em>unfilled slots</em> (a multi-phase trial's request for its next parameters
 * is not a slot and is not counted). PBT never runs out for good: as soon as the last member of a
 * round reports (or ends without a result), the next round is formed and the tuner at once sends as
 * many of its members as there are unfilled slots, through its {@link org.tunekit.sdk.TunerContext}
 * ({@code TR} with fresh ids, without a request); each send fills one slot. The remaining members
 * answer the next requests.
 *
 * <p>What that means with an NNI manager: it asks for {@code trialConcurrency} trials at the start
 * and then {@code GE 1} each time a trial ends (also after a {@code NO}), never again for a slot it
 * was refused; it runs a {@code TR} it did not ask for as soon as a slot is free. With
 * {@code trialConcurrency} equal to {@code population_size}, round 0 runs fully parallel; the ends of
 * its members but the last are answered with {@code NO}; the final result of the last forms the new
 * round and the refused slots are filled at once through the context, and the last end's
 * {@code GE 1} takes the remaining member: every round runs fully parallel. With a
 * {@code trialConcurrency} above the population the extra slots stay unfilled (a round never has more
 * than {@code population_size} members), and are counted again on every round. The count of unfilled
 * slots is not part of the checkpoint: a resumed experiment's manager asks for its slots afresh. A
 * member handed out whose trial never reports holds its round back.
 *
 * <h2>Class arguments</h2>
 *
 * <ul>
 *   <li>{@code optimize_mode}: {@code "maximize"} (default) or {@code "minimize"}.</li>
 *   <li>{@code all_checkpoint_dir}: the root of the members' directories (a leading {@code ~} is the
 *       home directory; a relative path is resolved against the working directory). By default
 *       {@code $NNI_CHECKPOINT_DIRECTORY/pbt}, next to the tuner's own checkpoint in the experiment's
 *       directory (NNI itself defaults to {@code ~/nni/checkpoint/<experiment id>}); without that
 *       variable, a fresh temporary directory, logged.</li>
 *   <li>{@code population_size}: members per round, at least 2 (default 10).</li>
 *   <li>{@code factor}: the perturbation factor, in [0, 1) (default 0.2).</li>
 *   <li>{@code resample_probability}: in [0, 1] (default 0.25).</li>
 *   <li>{@code fraction}: in [0, 0.5] (default 0.2).</li>
 *   <li>{@code seed}: the seed of all randomness; without it a random seed is chosen and logged.</li>
 * </ul>
 *
 * <h2>Imported data and checkpoints</h2>
 *
 * <p>Results imported before round 0 is formed are hints: the best of those that fit the space (up
 * to half the population; the two directory keys, if present, are dropped) are members of round 0,
 * starting from empty checkpoints. Afterwards, an imported result whose {@code save_checkpoint_dir}
 * is that of an unsettled member of the current round settles it (the trial ran before the
 * experiment was resumed); other imported results are ignored with a log line.
 *
 * <p>The tuner's own checkpoint ({@code pbt-tuner.state}, a line format) holds the seed, the root
 * directory, the round and every member's hyper-parameters, load directory, state and metric; a
 * restored tuner continues exactly as the uninterrupted one would, except that members that were
 * running when the checkpoint was saved are handed out again, since the trials of a stopped
 * experiment do not report.
 */
package org.tunekit.tuners.pbt;
