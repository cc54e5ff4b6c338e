package org.tunekit.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.gpus.FakeNvidiaSmi;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.results.TrialStatus;

/** platform: remote against two SSH servers in this process that run real bash: the whole life of trials, and each fault. */
class RemoteMachinesTest {
    /**
     * A trial: a PERIODICAL metric in its metrics file and one on stdout (as NNI's nni package prints them
     * on platform remote), and a FINAL metric (its x) in the file; before the FINAL it waits for the file "go" in its folder when it exists as "wait".
     * It notes its own pid in trial.pid. */
    private static final String TRIAL = """
            echo $$ > "$NNI_SYS_DIR/trial.pid"
            frame() { printf 'ME%06d%s\\n' $(( ${#1} + 1 )) "$1" >> "$NNI_SYS_DIR/.nni/metrics"; }
            x=$(sed 's/.*"x": *\\([0-9.]*\\).*/\\1/' "$NNI_SYS_DIR/parameter.cfg")
            echo "platform=$NNI_PLATFORM cuda=${CUDA_VISIBLE_DEVICES-unset}"
            frame '{"type": "PERIODICAL", "sequence": 0, "value": "1"}'
            printf "NNISDK_MEb'%s'\\n" '{"type": "PERIODICAL", "sequence": 1, "value": "2"}'
            if [ -e "$NNI_SYS_DIR/../wait" ]; then while [ ! -e "$NNI_SYS_DIR/go" ]; do sleep 0.1; done; fi
            frame "{\\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
            echo done >&2
            """;

    @TempDir
    Path tmp;
    private final List<BashOverSsh> servers = new ArrayList<>();
    private final List<RemoteMachines> services = new ArrayList<>();
    private KeyPair userKey;
    private Path keyFile;
    private Path code;

    /** What the manager would be told, and what it would do: collect a trial when it ends. */
    static final class Recorded implements TrialEvents {
        final Map<String, List<String>> metrics = new LinkedHashMap<>();
        final Map<String, Integer> exits = new LinkedHashMap<>();
        final Map<String, String> lost = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();
        /** Frames handled from each trial's metrics file and from its output, as the store counts them. */
        final Map<String, int[]> frames = new LinkedHashMap<>();
        TrainingService service;

        @Override
        public void parameterRequest(String trialJobId, boolean byFile, int index) {}

        @Override
        public void metric(String trialJobId, String text, MetricStream from) {
            metrics.computeIfAbsent(trialJobId, k -> new ArrayList<>()).add(text);
            frames.computeIfAbsent(trialJobId, k -> new int[2])[from == MetricStream.FILE ? 0 : 1]++;
        }

        @Override
        public void problem(String trialJobId, String text) {
            problems.add(trialJobId + ": " + text);
        }

        @Override
        public void exited(String trialJobId, int exitCode) {
            service.collect(trialJobId);
            exits.put(trialJobId, exitCode);
        }

        @Override
        public void ended(String trialJobId, org.tunekit.runner.results.TrialStatus status, String reason) {
            // the service reports a lost machine's trials as LOST
            assertThat(status).isEqualTo(org.tunekit.runner.results.TrialStatus.LOST);
            service.collect(trialJobId);
            lost.put(trialJobId, reason);
        }
    }

    /** A clock the test moves. */
    static final class Hands extends Clock {
        Instant now = Instant.parse("2026-11-01T00:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        userKey = g.generateKeyPair();
        keyFile = tmp.resolve("id_rsa");
        OpenSSHKeyEncryptionContext encryption = new OpenSSHKeyEncryptionContext();
        encryption.setPassword("phrase");
        encryption.setCipherName("AES");
        encryption.setCipherMode("CTR");
        encryption.setCipherType("256");
        try (OutputStream out = Files.newOutputStream(keyFile)) {
            new OpenSSHKeyPairResourceWriter().writePrivateKey(userKey, "test", encryption, out);
        }
        code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("trial.sh"), TRIAL);
    }

    @AfterEach
    void tearDown() throws IOException {
        for (RemoteMachines s : services) {
            s.close();
        }
        for (BashOverSsh s : servers) {
            s.close();
        }
    }

    private BashOverSsh server(String name, Map<String, String> env) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home-" + name));
        BashOverSsh s = new BashOverSsh(home, tmp.resolve("hostkey-" + name), userKey.getPublic(), env);
        servers.add(s);
        return s;
    }

    /** A machine: the first logs in with the password, the others with the key and its passphrase. */
    private static Map<String, Object> machine(BashOverSsh s, boolean password, Path key) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", "127.0.0.1");
        m.put("port", (long) s.port());
        m.put("user", BashOverSsh.USER);
        if (password) {
            m.put("password", BashOverSsh.PASSWORD);
        } else {
            m.put("sshKeyFile", key.toString());
            m.put("sshPassphrase", "phrase");
        }
        m.put("useActiveGpu", false);
        m.put("maxTrialNumberPerGpu", 1L);
        return m;
    }

    private RemoteMachines service(List<Map<String, Object>> machines, Double trialGpuNumber, boolean acceptNew, Clock clock, String expId)
            throws IOException {
        Map<String, Object> settings = new HashMap<>();
        settings.put("platform", "remote");
        settings.put("machineList", machines);
        if (trialGpuNumber != null) {
            settings.put("trialGpuNumber", trialGpuNumber);
        }
        Path expDir = Files.createDirectories(tmp.resolve("experiments").resolve(expId));
        TrainingServiceContext context = new TrainingServiceContext(expId, settings, "bash trial.sh", code, expDir, null,
                Map.of("acceptNewHosts", Boolean.toString(acceptNew), "knownHosts", tmp.resolve("known_hosts").toString()));
        // a poll on every call: the tests' clocks stand still between the moves they make
        RemoteMachines s = new RemoteMachines(context, clock, Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ZERO);
        services.add(s);
        return s;
    }

    private static TrialLaunch launch(String expId, String jobId, int seq, double x) {
        return new TrialLaunch(expId, jobId, seq, seq, "{\"parameter_id\": " + seq + ", \"parameters\": {\"x\": " + x + "}}");
    }

    /** Polls until the condition holds; a bound on the attempts, not a timing. */
    private static void pollUntil(TrainingService s, BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 600 && !done.getAsBoolean(); i++) {
            s.poll();
            Thread.sleep(50);
        }
        assertThat(done.getAsBoolean()).as("reached within 600 polls").isTrue();
    }

    @Test
    void trialsRunOnBothMachinesTheirMetricsAndOutputAreKeptHereAndNewHostsAreAddedWhenAccepted() throws Exception {
        BashOverSsh a = server("a", Map.of());
        BashOverSsh b = server("b", Map.of());
        RemoteMachines s = service(List.of(machine(a, true, null), machine(b, false, keyFile)), null, true, Clock.systemUTC(), "exp1");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);

        assertThat(Files.readString(tmp.resolve("known_hosts"))).contains("[127.0.0.1]:" + a.port()).contains("[127.0.0.1]:" + b.port());
        assertThat(a.home.resolve("tunekit-experiments/exp1/code/trial.sh")).exists();
        assertThat(s.canStart()).isTrue();
        Placement p0 = s.start(launch("exp1", "T0", 0, 0.25));
        Placement p1 = s.start(launch("exp1", "T1", 1, 0.5));
        Placement p2 = s.start(launch("exp1", "T2", 2, 0.75));
        // the least loaded machine first, ties to the first in machineList
        assertThat(List.of(p0.machine(), p1.machine(), p2.machine())).containsExactly("tunekit@127.0.0.1:" + a.port(),
                "tunekit@127.0.0.1:" + b.port(), "tunekit@127.0.0.1:" + a.port());
        assertThat(p0.gpus()).isNull();
        assertThat(p0.handle()).contains("|").endsWith("/tunekit-experiments/exp1/trials/T0");

        pollUntil(s, () -> events.exits.size() == 3);

        assertThat(events.exits).containsEntry("T0", 0).containsEntry("T1", 0).containsEntry("T2", 0);
        assertThat(events.metrics.get("T1")).containsExactlyInAnyOrder("{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}",
                "{\"type\": \"PERIODICAL\", \"sequence\": 1, \"value\": \"2\"}", "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.5\"}");
        Path local = tmp.resolve("experiments/exp1/trials/T1");
        assertThat(Files.readString(local.resolve("trial.stdout"))).startsWith("platform=remote cuda=unset\nNNISDK_MEb'");
        assertThat(Files.readString(local.resolve("trial.stderr"))).isEqualTo("done\n");
        assertThat(Files.readString(local.resolve(".nni/metrics"))).contains("\"0.5\"");
        assertThat(local.resolve("parameter.cfg")).exists();
        assertThat(events.problems).isEmpty();
    }

    @Test
    void anUnknownHostIsRefusedNamingItUnlessAcceptedAndAChangedKeyAlways() throws Exception {
        BashOverSsh a = server("a", Map.of());
        RemoteMachines refusing = service(List.of(machine(a, true, null)), null, false, Clock.systemUTC(), "exp2");
        assertThatThrownBy(refusing::check).hasMessageContaining("127.0.0.1:" + a.port()).hasMessageContaining("not in " + tmp.resolve("known_hosts"))
                .hasMessageContaining("--accept-new-hosts");

        service(List.of(machine(a, true, null)), null, true, Clock.systemUTC(), "exp2").check();
        // the same port, another host key: refused even when new hosts are accepted
        a.close();
        BashOverSsh impostor = new BashOverSsh(a.home, tmp.resolve("hostkey-other"), userKey.getPublic(), Map.of(), a.port());
        servers.add(impostor);
        RemoteMachines fooled = service(List.of(machine(impostor, true, null)), null, true, Clock.systemUTC(), "exp2");
        assertThatThrownBy(fooled::check).hasMessageContaining("127.0.0.1:" + a.port()).hasMessageContaining("CHANGED");
    }

    @Test
    void aMachineUnreachableAtStartIsNamed() throws Exception {
        int closed;
        try (ServerSocket probe = new ServerSocket(0)) {
            closed = probe.getLocalPort();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", "127.0.0.1");
        m.put("port", (long) closed);
        m.put("user", "nobody");
        m.put("password", "x");
        RemoteMachines s = service(List.of(m), null, true, Clock.systemUTC(), "exp3");
        assertThatThrownBy(s::check).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot reach")
                .hasMessageContaining("127.0.0.1:" + closed);
    }

    @Test
    void gpusAreReadWithTheMachinesNvidiaSmiAndGivenOutPerMachine() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, "");
        BashOverSsh a = server("a", Map.of("PATH", bin + ":" + System.getenv("PATH")));
        Map<String, Object> m = machine(a, true, null);
        m.put("gpuIndices", List.of(2L, 3L));
        RemoteMachines s = service(List.of(m), 1.0, true, Clock.systemUTC(), "exp4");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);
        Files.createDirectories(a.home.resolve("tunekit-experiments/exp4/trials"));
        Files.writeString(a.home.resolve("tunekit-experiments/exp4/trials/wait"), "");

        Placement p0 = s.start(launch("exp4", "G0", 0, 0.1));
        Placement p1 = s.start(launch("exp4", "G1", 1, 0.2));
        assertThat(s.canStart()).isFalse();
        assertThat(List.of(p0.gpus(), p1.gpus())).containsExactlyInAnyOrder(List.of(2), List.of(3));

        Files.writeString(a.home.resolve("tunekit-experiments/exp4/trials/G0/go"), "");
        pollUntil(s, () -> events.exits.containsKey("G0"));
        assertThat(s.canStart()).isTrue();
        assertThat(Files.readString(tmp.resolve("experiments/exp4/trials/G0/trial.stdout"))).contains("cuda=" + p0.gpus().get(0));
        s.stop("G1", Duration.ofSeconds(5));
        pollUntil(s, () -> events.exits.containsKey("G1"));
        assertThat(events.exits.get("G1")).isEqualTo(130);
    }

    @Test
    void aLaterRunnerReattachesAndHandsOnOnlyTheMetricsNotHandedOnBefore() throws Exception {
        BashOverSsh a = server("a", Map.of());
        Recorded before = new Recorded();
        RemoteMachines first = opened(a, "exp5", before);
        Path trials = Files.createDirectories(a.home.resolve("tunekit-experiments/exp5/trials"));
        Files.writeString(trials.resolve("wait"), "");
        Placement running = first.start(launch("exp5", "R0", 0, 0.5));
        Placement ended = first.start(launch("exp5", "R1", 1, 0.25));
        Placement killed = first.start(launch("exp5", "R2", 2, 0.125));
        pollUntil(first, () -> before.metrics.size() == 3 && before.metrics.values().stream().allMatch(m -> m.size() == 2));
        // the runner is killed: its sessions go, the trials run on; meanwhile R1 ends and R2 is killed
        services.remove(first);
        first.abandon();
        Files.writeString(trials.resolve("R1/go"), "");
        long pid = Long.parseLong(killed.handle().split("\\|")[1]);
        new ProcessBuilder("kill", "-KILL", "--", "-" + pid).start().waitFor();
        awaitExitFile(trials.resolve("R1"));

        Recorded after = new Recorded();
        RemoteMachines second = opened(a, "exp5", after);
        assertThat(second.reattach(stored("R0", running, before)).running()).isTrue();
        assertThat(second.reattach(stored("R1", ended, before)).running()).isTrue();
        assertThat(second.reattach(stored("R2", killed, before))).extracting(TrainingService.Reattached::running).isEqualTo(false);
        Files.writeString(trials.resolve("R0/go"), "");
        pollUntil(second, () -> after.exits.size() == 2);

        assertThat(after.exits).containsEntry("R0", 0).containsEntry("R1", 0);
        // each frame handed on once, by one runner or the other
        assertThat(before.metrics.get("R0")).containsExactlyInAnyOrder("{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}",
                "{\"type\": \"PERIODICAL\", \"sequence\": 1, \"value\": \"2\"}");
        assertThat(after.metrics.get("R0")).containsExactly("{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.5\"}");
        assertThat(after.metrics.get("R1")).containsExactly("{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.25\"}");
    }

    @Test
    void trialsOfAMachineThatStopsAnsweringAreLostAfterTheStatedTimeAndTheMachineIsUsedAgainWhenBack() throws Exception {
        Hands clock = new Hands();
        BashOverSsh a = server("a", Map.of());
        BashOverSsh b = server("b", Map.of());
        RemoteMachines s = service(List.of(machine(a, true, null), machine(b, true, null)), null, true, clock, "exp6");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);
        for (BashOverSsh x : List.of(a, b)) {
            Files.createDirectories(x.home.resolve("tunekit-experiments/exp6/trials"));
            Files.writeString(x.home.resolve("tunekit-experiments/exp6/trials/wait"), "");
        }
        s.start(launch("exp6", "D0", 0, 0.5));
        Placement onB = s.start(launch("exp6", "D1", 1, 0.5));
        pollUntil(s, () -> events.metrics.size() == 2 && events.metrics.values().stream().allMatch(m -> m.size() == 2));

        int port = b.port();
        b.close();
        s.poll();
        // the polls sent are answered (b's refused) before the clock moves
        s.awaitAnswers();
        assertThat(events.lost).isEmpty();
        clock.now = clock.now.plusSeconds(59);
        s.poll();
        // that poll's refusal is back before the clock moves on (else the poll counts as still unanswered at +61 s)
        s.awaitAnswers();
        assertThat(events.lost).isEmpty();
        clock.now = clock.now.plusSeconds(2);
        s.poll();
        assertThat(events.lost).containsOnlyKeys("D1");
        assertThat(events.lost.get("D1")).contains("127.0.0.1:" + port).contains("60 s");
        // while it is down, new trials go to the other machine
        assertThat(s.start(launch("exp6", "D2", 2, 0.5)).machine()).endsWith(":" + a.port());

        // back on the same port: tried again within 30 s, its lost trial's process killed, used again
        BashOverSsh back = new BashOverSsh(b.home, tmp.resolve("hostkey-b"), userKey.getPublic(), Map.of(), port);
        servers.add(back);
        clock.now = clock.now.plusSeconds(30);
        pollUntil(s, () -> s.candidateMachines().contains("tunekit@127.0.0.1:" + port));
        long pid = Long.parseLong(onB.handle().split("\\|")[1]);
        for (int i = 0; i < 100 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(50);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(s.start(launch("exp6", "D3", 3, 0.5)).machine()).endsWith(":" + port);
    }

    @Test
    void aMachineThatHangsHoldsUpNeitherThePollsNorTheOtherMachinesTrialsAndLosesItsTrialsAfterTheStatedTime() throws Exception {
        Hands clock = new Hands();
        BashOverSsh a = server("a", Map.of());
        BashOverSsh b = server("b", Map.of());
        String onA = "tunekit@127.0.0.1:" + a.port();
        String onB = "tunekit@127.0.0.1:" + b.port();
        RemoteMachines s = service(List.of(machine(a, true, null), machine(b, true, null)), null, true, clock, "exp8");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);
        Path trialsOnB = Files.createDirectories(b.home.resolve("tunekit-experiments/exp8/trials"));
        for (BashOverSsh x : List.of(a, b)) {
            Files.createDirectories(x.home.resolve("tunekit-experiments/exp8/trials"));
            Files.writeString(x.home.resolve("tunekit-experiments/exp8/trials/wait"), "");
        }
        assertThat(s.start(launch("exp8", "H0", 0, 0.5)).machine()).isEqualTo(onA);
        assertThat(s.start(launch("exp8", "H1", 1, 0.25)).machine()).isEqualTo(onB);
        pollUntil(s, () -> events.metrics.size() == 2 && events.metrics.values().stream().allMatch(m -> m.size() == 2));

        // a hangs: its connection stays up, its commands get no answer
        java.util.concurrent.CountDownLatch release = a.hold();
        try {
            pollUntil(s, () -> a.waiting() > 0);
            // the poll waits on a's worker: a is not given up, though nothing came back
            assertThat(s.candidateMachines()).contains(onA);

            // once a's poll is overdue, a new trial goes to b, though a has no more trials than b and comes first
            clock.now = clock.now.plusSeconds(10);
            pollUntil(s, () -> s.candidateMachines().equals(List.of(onB)));
            int waiting = a.waiting();
            assertThat(s.start(launch("exp8", "H2", 2, 0.125)).machine()).isEqualTo(onB);
            assertThat(a.waiting()).as("nothing was sent to a").isEqualTo(waiting);

            // b's trial reports its metrics and ends, all through polls on this thread, while a's poll still waits there
            Files.writeString(trialsOnB.resolve("H1/go"), "");
            pollUntil(s, () -> events.exits.containsKey("H1"));
            assertThat(a.waiting()).as("a's poll still held there").isPositive();
            assertThat(events.exits).containsEntry("H1", 0).doesNotContainKey("H0");
            assertThat(events.metrics.get("H1")).contains("{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.25\"}");
            assertThat(events.lost).isEmpty();

            // 60 s after a's poll was sent, a's trial is lost; b's runs on
            clock.now = clock.now.plusSeconds(49);
            s.poll();
            assertThat(events.lost).isEmpty();
            clock.now = clock.now.plusSeconds(1);
            s.poll();
            assertThat(events.lost).containsOnlyKeys("H0");
            assertThat(events.lost.get("H0")).contains("127.0.0.1:" + a.port()).contains("60 s");
            // a is down; b is used once it answered the poll sent after the clock moved
            pollUntil(s, () -> s.candidateMachines().equals(List.of(onB)));
        } finally {
            release.countDown();
        }
        Files.writeString(trialsOnB.resolve("H2/go"), "");
        pollUntil(s, () -> events.exits.containsKey("H2"));
        assertThat(events.exits).containsEntry("H2", 0);
    }

    @Test
    void aStartOnAMachineWhoseConnectionDiesUnderItGoesToTheNextMachine() throws Exception {
        BashOverSsh a = server("a", Map.of());
        BashOverSsh b = server("b", Map.of());
        RemoteMachines s = service(List.of(machine(a, true, null), machine(b, true, null)), null, true, Clock.systemUTC(), "exp10");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);
        // a's commands end with no exit status, as when its sshd is killed before the poll that would tell
        a.dropCommands();
        assertThat(s.start(launch("exp10", "C0", 0, 0.5)).machine()).isEqualTo("tunekit@127.0.0.1:" + b.port());
        assertThat(s.candidateMachines()).containsExactly("tunekit@127.0.0.1:" + b.port());
        pollUntil(s, () -> events.exits.containsKey("C0"));
        assertThat(events.exits).containsEntry("C0", 0);
    }

    @Test
    void aGpuThatAnotherProgramTakesIsNoLongerGivenOutWhenActiveGpusAreNotUsed() throws Exception {
        Hands clock = new Hands();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, "");
        BashOverSsh a = server("a", Map.of("PATH", bin + ":" + System.getenv("PATH")));
        Map<String, Object> m = machine(a, true, null);
        m.put("gpuIndices", List.of(2L, 3L));
        RemoteMachines s = service(List.of(m), 1.0, true, clock, "exp9");
        Recorded events = new Recorded();
        events.service = s;
        s.check();
        s.open(events);
        Path trials = Files.createDirectories(a.home.resolve("tunekit-experiments/exp9/trials"));
        Files.writeString(trials.resolve("wait"), "");

        assertThat(s.start(launch("exp9", "B0", 0, 0.1)).gpus()).containsExactly(2);
        Path pidFile = trials.resolve("B0/trial.pid");
        for (int i = 0; i < 200 && (!Files.exists(pidFile) || Files.readString(pidFile).isBlank()); i++) {
            Thread.sleep(50);
        }
        // a process of the trial's own, below the process that leads its session
        long own = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(s.canStart()).isTrue();

        // another program takes GPU 3; the trial's process shows on its GPU 2
        String gpu2 = "GPU-22222222-cccc-2222-2222-222222222222";
        String gpu3 = "GPU-33333333-dddd-3333-3333-333333333333";
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, gpu2 + ", " + own + ", 100, bash\n" + gpu3 + ", 5555, 20000, /usr/bin/python3\n");
        s.awaitAnswers();
        clock.now = clock.now.plus(RemoteMachines.GPU_REREAD);
        pollUntil(s, () -> !s.canStart());

        // the other program ends; the trial's own process shows on GPU 3 too, which does not make it busy
        s.awaitAnswers();
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, gpu2 + ", " + own + ", 100, bash\n" + gpu3 + ", " + own + ", 100, bash\n");
        clock.now = clock.now.plus(RemoteMachines.GPU_REREAD);
        pollUntil(s, s::canStart);
        assertThat(s.start(launch("exp9", "B1", 1, 0.2)).gpus()).containsExactly(3);
        assertThat(events.problems).isEmpty();
    }

    @Test
    void aReattachSkipsExactlyTheFramesTheStoreCountsAsHandled() throws Exception {
        BashOverSsh a = server("a", Map.of());
        Recorded before = new Recorded();
        RemoteMachines first = opened(a, "exp7", before);
        Path trials = Files.createDirectories(a.home.resolve("tunekit-experiments/exp7/trials"));
        Files.writeString(trials.resolve("wait"), "");
        Placement p = first.start(launch("exp7", "F0", 0, 0.5));
        Files.writeString(trials.resolve("F0/go"), "");
        awaitExitFile(trials.resolve("F0"));
        // the runner read every frame, but was killed after the store had counted the first alone
        before.service = new RemoteLikeCollectNothing();
        pollUntil(first, () -> before.metrics.getOrDefault("F0", List.of()).size() == 3);
        services.remove(first);
        first.abandon();
        List<String> all = before.metrics.get("F0");
        assertThat(all).hasSize(3);
        before.frames.put("F0", new int[] {1, 0});

        Recorded after = new Recorded();
        RemoteMachines second = opened(a, "exp7", after);
        assertThat(second.reattach(stored("F0", p, before)).running()).isTrue();
        pollUntil(second, () -> after.exits.containsKey("F0"));
        assertThat(after.metrics.get("F0")).containsExactlyElementsOf(all.subList(1, 3));
    }

    /** A service on machine {@code a} alone for experiment {@code expId}, checked and opened on {@code events}. */
    private RemoteMachines opened(BashOverSsh a, String expId, Recorded events) throws Exception {
        RemoteMachines s = service(List.of(machine(a, true, null)), null, true, Clock.systemUTC(), expId);
        events.service = s;
        s.check();
        s.open(events);
        return s;
    }

    /** Waits (10 s at most) until the trial in {@code trialDir} has written its exit status. */
    private static void awaitExitFile(Path trialDir) throws InterruptedException {
        for (int i = 0; i < 200 && !Files.exists(trialDir.resolve(".nni/exit")); i++) {
            Thread.sleep(50);
        }
    }

    /** A manager that does not get to collect (the runner dies first). */
    private static final class RemoteLikeCollectNothing implements TrainingService {
        @Override
        public String describe() {
            return "";
        }

        @Override
        public void open(TrialEvents events) {}

        @Override
        public Placement start(TrialLaunch trial) {
            return null;
        }

        @Override
        public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {}

        @Override
        public void stop(String trialJobId, Duration grace) {}

        @Override
        public Reattached reattach(StoredTrial trial) {
            return Reattached.GONE;
        }

        @Override
        public void close() {}
    }

    /** The trial as the store holds it after a manager handled what {@code seen} was told of it. */
    private static StoredTrial stored(String jobId, Placement p, Recorded seen) {
        int[] frames = seen.frames.getOrDefault(jobId, new int[2]);
        return new StoredTrial(0, jobId, 0, "{}", TrialStatus.RUNNING, null, null, p.handle(), p.gpus(), Instant.now(), frames[0], frames[1]);
    }
}
