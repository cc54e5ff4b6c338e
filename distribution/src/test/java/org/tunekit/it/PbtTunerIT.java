package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;

/**
 * {@code PBTTuner} through the real {@code tunekit dispatch} process: a population of 4 for 3
 * rounds, with scripted metrics reported out of order. The {@code TR} stream must follow NNI's
 * checkpoint-directory contract: {@code save_checkpoint_dir} is {@code <root>/<round>/<member>};
 * in round 0 {@code load_checkpoint_dir} is the member's own directory; afterwards the worst member
 * loads the checkpoint of the best and the others their own, and a member whose trial failed starts
 * afresh. Requests made while members of the round are still out are answered with {@code NO}, and
 * as many members of the next round as were refused are sent, without a request, as soon as it forms.
 * A manager that asks as NNI's does (once per free slot at the start, then once per trial end) gets
 * every round in parallel.
 */
class PbtTunerIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String SPACE = "{\"lr\":{\"_type\":\"loguniform\",\"_value\":[0.0001,0.1]},"
            + "\"units\":{\"_type\":\"choice\",\"_value\":[16,32,64]},\"depth\":{\"_type\":\"randint\",\"_value\":[1,9]}}";

    /** One TR: its id, the hyper-parameters, and the two directories. */
    record Trial(long id, Map<String, Object> hyper, Path load, Path save, String record) {
        int member() {
            return Integer.parseInt(save.getFileName().toString());
        }
    }

    @Test
    void threeRoundsOfAPopulationOfFour(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("pbt");
        String config = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "PBTTuner", "classArgs", Map.of(
                "optimize_mode", "maximize", "population_size", 4, "seed", 3, "all_checkpoint_dir", root.toString()))));
        try (TunekitProcess p = TunekitProcess.dispatch(config, Map.of())) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);

            // round 0: every member loads from and saves into its own, empty, directory
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "4"));
            List<Trial> round0 = trials(p, 4, 0);
            for (int i = 0; i < 4; i++) {
                Trial t = round0.get(i);
                assertThat(t.member()).isEqualTo(i);
                assertThat(t.save()).isEqualTo(root.resolve("0/" + i)).isDirectory().isEmptyDirectory();
                assertThat(t.load()).isEqualTo(t.save());
            }
            // a request while the round is out: NO, carrying the request's first id
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertNo(p, 4);

            // results out of order; member 1 is best, member 3 worst
            double[] metrics0 = {0.2, 0.9, 0.5, 0.1};
            for (int i : new int[] {2, 0, 3}) {
                finish(p, round0.get(i), metrics0[i]);
            }
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertNo(p, 5);
            // the last result forms round 1: members 0 and 1 fill the two refused slots (TR 6, 7) unasked
            finish(p, round0.get(1), metrics0[1]);

            // then a request for more than the 2 members left: 2 TR and a NO
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "5"));
            List<Trial> round1 = trials(p, 4, 6);
            assertNo(p, 8);
            for (int i = 0; i < 4; i++) {
                Trial t = round1.get(i);
                assertThat(t.save()).isEqualTo(root.resolve("1/" + i)).isDirectory();
                if (i == 3) {
                    assertThat(t.load()).as("the worst member exploits the best one's checkpoint").isEqualTo(root.resolve("0/1"));
                    assertThat(t.hyper()).as("and explores its hyper-parameters").isNotEqualTo(round0.get(1).hyper());
                } else {
                    assertThat(t.load()).as("member %d continues", i).isEqualTo(root.resolve("0/" + i));
                    assertThat(t.hyper()).isEqualTo(round0.get(i).hyper());
                }
            }

            // round 1 results: member 2 fails without a result; member 3 is best, member 0 worst
            finish(p, round1.get(3), 0.99);
            p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"J" + round1.get(2).id() + "\", \"event\": \"FAILED\", \"hyper_params\": "
                    + JsonCodec.write(round1.get(2).record()) + "}"));
            finish(p, round1.get(1), 0.95);
            finish(p, round1.get(0), 0.3);

            // round 2 forms with the last result: three refused slots (ids 10-12) are filled unasked
            List<Trial> round2 = new ArrayList<>(trials(p, 3, 13));
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            round2.addAll(trials(p, 1, 16));
            assertNo(p, 16);
            assertThat(round2).extracting(Trial::save).containsExactly(
                    root.resolve("2/0"), root.resolve("2/1"), root.resolve("2/2"), root.resolve("2/3"));
            assertThat(round2.get(0).load()).as("the worst member exploits the best one's checkpoint").isEqualTo(root.resolve("1/3"));
            assertThat(round2.get(1).load()).isEqualTo(root.resolve("1/1"));
            assertThat(round2.get(1).hyper()).isEqualTo(round1.get(1).hyper());
            assertThat(round2.get(2).load()).as("the failed member starts afresh").isEqualTo(root.resolve("2/2"));
            assertThat(round2.get(3).load()).isEqualTo(root.resolve("1/3"));
            assertThat(round2.get(3).hyper()).isEqualTo(round1.get(3).hyper());

            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    /**
     * An NNI-like manager with {@code trialConcurrency} equal to the population: {@code GE 4} at the
     * start, then, as each trial ends, its final metric, its end and {@code GE 1}. Every round has
     * all four members out before any of them ends.
     */
    @Test
    void aManagerThatAsksOncePerTrialEndGetsEveryRoundInParallel(@TempDir Path tmp) throws Exception {
        Path root = tmp.resolve("pbt");
        String config = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "PBTTuner", "classArgs", Map.of(
                "optimize_mode", "maximize", "population_size", 4, "seed", 11, "all_checkpoint_dir", root.toString()))));
        try (TunekitProcess p = TunekitProcess.dispatch(config, Map.of())) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "4"));
            List<Trial> running = trials(p, 4, 0);
            long nextId = 4;
            for (int round = 0; round < 3; round++) {
                assertThat(running).as("round %d: all members out at once", round).extracting(Trial::save).containsExactly(
                        root.resolve(round + "/0"), root.resolve(round + "/1"), root.resolve(round + "/2"), root.resolve(round + "/3"));
                // members end in the order 2, 0, 3, 1; the first three ends' GE 1 are refused
                for (int member : new int[] {2, 0, 3}) {
                    finish(p, running.get(member), 0.1 * (member + 1));
                    p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
                    assertNo(p, nextId++);
                }
                // the last final result forms the next round: the three refused slots get members 0-2 at once
                Trial last = running.get(1);
                p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + last.id() + ", \"trial_job_id\": \"J"
                        + last.id() + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.2\"}"));
                List<Trial> next = new ArrayList<>(trials(p, 3, nextId));
                nextId += 3;
                // its end and GE 1 get the fourth
                p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"J" + last.id() + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                        + JsonCodec.write(last.record()) + "}"));
                p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
                next.addAll(trials(p, 1, nextId++));
                running = next;
            }
            assertThat(running).extracting(Trial::save).containsExactly(
                    root.resolve("3/0"), root.resolve("3/1"), root.resolve("3/2"), root.resolve("3/3"));
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    private static List<Trial> trials(TunekitProcess p, int n, long firstId) throws Exception {
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Command c = p.next(LIMIT);
            assertThat(c.type()).as("reply %d: %s; stderr:%n%s", i, c, p.stderr()).isEqualTo(CommandType.NEW_TRIAL_JOB);
            Map<?, ?> record = (Map<?, ?>) JsonCodec.parse(c.payload(), "TR");
            assertThat(((Number) record.get("parameter_id")).longValue()).isEqualTo(firstId + i);
            Map<String, Object> hyper = new LinkedHashMap<>();
            ((Map<?, ?>) record.get("parameters")).forEach((k, v) -> hyper.put((String) k, v));
            Path load = Path.of((String) hyper.remove("load_checkpoint_dir"));
            Path save = Path.of((String) hyper.remove("save_checkpoint_dir"));
            assertThat(hyper).containsOnlyKeys("lr", "units", "depth");
            out.add(new Trial(firstId + i, hyper, load, save, c.payload()));
        }
        return out;
    }

    private static void assertNo(TunekitProcess p, long firstId) throws Exception {
        Command c = p.next(LIMIT);
        assertThat(c.type()).as("%s; stderr:%n%s", c, p.stderr()).isEqualTo(CommandType.NO_MORE_TRIAL_JOBS);
        assertThat(((Number) ((Map<?, ?>) JsonCodec.parse(c.payload(), "NO")).get("parameter_id")).longValue()).isEqualTo(firstId);
    }

    /** The trial's final metric, then its successful end. */
    private static void finish(TunekitProcess p, Trial t, double metric) throws Exception {
        p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + t.id() + ", \"trial_job_id\": \"J" + t.id()
                + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + metric + "\"}"));
        p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"J" + t.id() + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                + JsonCodec.write(t.record()) + "}"));
    }
}
