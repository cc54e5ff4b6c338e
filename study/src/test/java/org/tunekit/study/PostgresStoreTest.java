package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/** {@link Storage#postgres} against a real server (see {@link PostgresLab}); skipped without one. */
class PostgresStoreTest {
    private final List<String> names = new ArrayList<>();

    @BeforeEach
    void lab() {
        PostgresLab.assume();
    }

    @AfterEach
    void dropStudies() {
        names.forEach(PostgresLab::drop);
    }

    private String name(String prefix) {
        String n = PostgresLab.uniqueName(prefix);
        names.add(n);
        return n;
    }

    @Test
    void twoStudiesInOneDatabaseStayApart() {
        String a = name("apart-a");
        String b = name("apart-b");
        SearchSpace other = SearchSpace.builder().randint("layers", 1, 100).build();
        try (Study sa = Study.named(a).space(PostgresLab.SPACE).tuner("Random").seed(1).storage(PostgresLab.storage()).open();
             Study sb = Study.named(b).space(other).tuner("Random").seed(2).maximize().storage(PostgresLab.storage()).open()) {
            sa.optimize(PostgresLab::sphere, 5);
            sa.enqueue(Map.of("x", 1.0, "y", 1.0));
            sb.optimize(t -> t.getLong("layers"), 3);
            assertThat(sa.trials()).hasSize(5).allMatch(t -> t.parameters().values().containsKey("x"));
            assertThat(sb.trials()).hasSize(3).allMatch(t -> t.parameters().values().containsKey("layers") && !t.enqueued());
            assertThat(sb.trials().stream().map(TrialRecord::number)).containsExactly(0, 1, 2);
            assertThat(sb.trials().stream().map(TrialRecord::parameterId)).containsExactly(0L, 1L, 2L);
            assertThat(sa.ask().parameters().values()).isEqualTo(Map.of("x", 1.0, "y", 1.0));
        }
        try (Study again = Study.load(b, PostgresLab.storage())) {
            assertThat(again.trials()).hasSize(3);
            assertThat(again.objectives().get(0).mode()).isEqualTo(org.tunekit.sdk.OptimizeMode.MAXIMIZE);
        }
    }

    @Test
    void createLoadAndLoadIfExists() {
        String n = name("modes");
        assertThatThrownBy(() -> Study.load(n, PostgresLab.storage())).isInstanceOf(StudyException.class)
                .hasMessageContaining("no study named '" + n + "'").hasMessageContaining("PostgreSQL at " + PostgresLab.URL.split("\\?")[0]);
        try (Study s = Study.named(n).space(PostgresLab.SPACE).tuner("TPE").storage(PostgresLab.storage()).open()) {
            s.optimize(PostgresLab::sphere, 4);
        }
        assertThatThrownBy(() -> Study.named(n).space(PostgresLab.SPACE).tuner("TPE").storage(PostgresLab.storage()).open())
                .isInstanceOf(StudyException.class).hasMessageContaining("already holds a study named '" + n + "'").hasMessageContaining("loadIfExists");
        try (Study loaded = Study.load(n, PostgresLab.storage())) {
            assertThat(loaded.trials()).hasSize(4).allMatch(t -> t.state() == TrialState.SUCCEEDED);
            assertThat(loaded.space()).isEqualTo(PostgresLab.SPACE);
            Trial t = loaded.ask();
            assertThat(t.number()).isEqualTo(4);
            assertThat(t.parameterId()).isEqualTo(4);
            loaded.tell(t, 0.5);
        }
        try (Study again = PostgresLab.study(n).open()) {
            assertThat(again.trials()).hasSize(5);
            assertThat(again.bestTrial().value()).isPresent();
        }
    }

    @Test
    void aDifferentDefinitionIsRefusedNamingTheDifference() {
        String n = name("definition");
        PostgresLab.study(n).open().close();
        assertThatThrownBy(() -> PostgresLab.study(n).tuner("Random").open()).isInstanceOf(StudyException.class)
                .hasMessageContaining("another definition").hasMessageContaining("tuner TPE").hasMessageContaining("vs Random");
        assertThatThrownBy(() -> PostgresLab.study(n).space(SearchSpace.builder().uniform("x", -5, 5).build()).open())
                .isInstanceOf(StudyException.class).hasMessageContaining("search space");
        assertThatThrownBy(() -> PostgresLab.study(n).maximize().open()).isInstanceOf(StudyException.class).hasMessageContaining("objectives");
        // nothing was written by the refused openings
        try (Study s = Study.load(n, PostgresLab.storage())) {
            assertThat(s.trials()).isEmpty();
        }
    }

    @Test
    void workersOpeningAtOnceMakeOneStudyAndTheTables() throws Exception {
        String schema = "tk_" + PostgresLab.uniqueName("s").replace('-', '_');
        try (Connection c = PostgresLab.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        }
        String url = PostgresLab.URL + (PostgresLab.URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        int workers = 6;
        CyclicBarrier together = new CyclicBarrier(workers);
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        try {
            List<Future<Integer>> numbers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                numbers.add(pool.submit(() -> {
                    together.await();
                    try (Study s = Study.named("together").space(PostgresLab.SPACE).tuner("Random").storage(Storage.postgres(url, PostgresLab.USER,
                            PostgresLab.PASSWORD)).loadIfExists().open()) {
                        Trial t = s.ask();
                        s.tell(t, 1.0);
                        return t.number();
                    }
                }));
            }
            Set<Integer> seen = new HashSet<>();
            for (Future<Integer> f : numbers) {
                seen.add(f.get(60, TimeUnit.SECONDS));
            }
            assertThat(seen).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
            try (Connection c = PostgresLab.connect(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + schema + ".tunekit_studies")) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
            try (Connection c = PostgresLab.connect(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    @Test
    void silentWorkersAreFailedOnceWhenTwoWorkersCheckAtOnce() throws Exception {
        String n = name("silent");
        StudyDefinition d = PostgresLab.study(n).definition();
        try (PostgresStore one = PostgresStore.open(PostgresLab.URL, PostgresLab.USER, PostgresLab.PASSWORD, n, d, Storage.Mode.CREATE_OR_LOAD);
             PostgresStore two = PostgresStore.open(PostgresLab.URL, PostgresLab.USER, PostgresLab.PASSWORD, n, d, Storage.Mode.CREATE_OR_LOAD)) {
            one.heartbeat("dead@host/1", Instant.now());
            Set<Integer> deadTrials = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                deadTrials.add(one.start(one.takeParameterId(), Parameters.of(Map.of("x", (double) i, "y", 0.0)), "dead@host/1", Instant.now()).number());
            }
            two.heartbeat("alive@host/2", Instant.now());
            int alive = two.start(two.takeParameterId(), Parameters.of(Map.of("x", -1.0, "y", 1.0)), "alive@host/2", Instant.now()).number();
            // the dead worker's last word an hour ago, in the database's clock that measures silence
            try (Connection c = PostgresLab.connect(); PreparedStatement p = c.prepareStatement("UPDATE tunekit_workers SET heartbeat = now() - interval '1 hour'"
                    + " WHERE worker = ? AND study_id = (SELECT id FROM tunekit_studies WHERE name = ?)")) {
                p.setString(1, "dead@host/1");
                p.setString(2, n);
                assertThat(p.executeUpdate()).isEqualTo(1);
            }
            CountDownLatch go = new CountDownLatch(1);
            List<TrialRecord> failed = new CopyOnWriteArrayList<>();
            List<Thread> checkers = new ArrayList<>();
            for (PostgresStore s : List.of(one, two)) {
                Thread t = new Thread(() -> {
                    try {
                        go.await();
                        Instant now = Instant.now();
                        failed.addAll(s.failSilentWorkers(now.minus(Duration.ofMinutes(10)), now, true));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                checkers.add(t);
                t.start();
            }
            go.countDown();
            for (Thread t : checkers) {
                t.join(30_000);
            }
            assertThat(failed.stream().map(TrialRecord::number)).containsExactlyInAnyOrderElementsOf(deadTrials);
            assertThat(failed).allMatch(t -> t.message().contains("dead@host/1") && t.state() == TrialState.FAILED);
            List<TrialRecord> stored = one.trials();
            assertThat(stored.get(alive).state()).isEqualTo(TrialState.RUNNING);
            assertThat(stored.stream().filter(t -> t.state() == TrialState.FAILED).count()).isEqualTo(5);
            // each failed trial's parameters were enqueued once
            List<Parameters> again = new ArrayList<>();
            TrialRecord r;
            while ((r = two.startEnqueued("alive@host/2", Instant.now())) != null) {
                again.add(r.parameters());
            }
            assertThat(again).containsExactlyInAnyOrderElementsOf(failed.stream().map(TrialRecord::parameters).toList());
            assertThat(one.endedSince(0).trials().stream().map(TrialRecord::number)).containsExactlyInAnyOrderElementsOf(deadTrials);
        }
    }

    @Test
    void aReaderOfEndsMissesNoneWhileWorkersEndTrials() throws Exception {
        String n = name("ends");
        StudyDefinition d = PostgresLab.study(n).definition();
        int writers = 3;
        int each = 40;
        List<PostgresStore> stores = new ArrayList<>();
        try (PostgresStore reader = PostgresStore.open(PostgresLab.URL, PostgresLab.USER, PostgresLab.PASSWORD, n, d, Storage.Mode.CREATE_OR_LOAD)) {
            for (int i = 0; i < writers; i++) {
                stores.add(PostgresStore.open(PostgresLab.URL, PostgresLab.USER, PostgresLab.PASSWORD, n, d, Storage.Mode.LOAD));
            }
            List<CompletableFuture<Void>> writing = new ArrayList<>();
            for (PostgresStore s : stores) {
                writing.add(CompletableFuture.runAsync(() -> {
                    for (int k = 0; k < each; k++) {
                        TrialRecord t = s.start(s.takeParameterId(), Parameters.of(Map.of("x", 0.5, "y", (double) k)), "w", Instant.now());
                        s.finish(t.number(), TrialState.SUCCEEDED, List.of((double) t.number()), (double) t.number(), null, Instant.now());
                    }
                }));
            }
            List<Integer> seen = new ArrayList<>();
            long cursor = 0;
            CompletableFuture<Void> all = CompletableFuture.allOf(writing.toArray(CompletableFuture[]::new));
            while (true) {
                boolean last = all.isDone();
                StudyStore.Ended e = reader.endedSince(cursor);
                e.trials().forEach(t -> seen.add(t.number()));
                cursor = e.cursor();
                if (last) {
                    break;
                }
            }
            all.get();
            assertThat(seen).doesNotHaveDuplicates().hasSize(writers * each);
            assertThat(cursor).isEqualTo(writers * each);
            assertThat(reader.trials()).allMatch(t -> t.value().orElseThrow() == t.number());
        } finally {
            stores.forEach(PostgresStore::close);
        }
    }

    @Test
    void aConnectionKilledInTheMiddleOfACallKeepsNothingOfIt() throws Exception {
        String n = name("killed");
        try (Study study = PostgresLab.study(n).open(); Connection admin = PostgresLab.connect()) {
            study.optimize(PostgresLab::sphere, 2);
            Trial t = study.ask();
            admin.setAutoCommit(false);
            // the test holds the trial's row: ending it waits there, after taking its end's position
            try (PreparedStatement p = admin.prepareStatement("SELECT t.state FROM tunekit_trials t JOIN tunekit_studies s ON s.id = t.study_id"
                    + " WHERE s.name = ? AND t.number = ? FOR UPDATE OF t")) {
                p.setString(1, n);
                p.setInt(2, t.number());
                p.executeQuery().close();
            }
            ExecutorService teller = Executors.newSingleThreadExecutor();
            try {
                Future<TrialRecord> told = teller.submit(() -> study.tell(t, 2.0));
                int backend = waitingBackend(n);
                try (PreparedStatement p = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
                    p.setInt(1, backend);
                    p.executeQuery().close();
                }
                admin.rollback();
                assertThatThrownBy(() -> told.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).cause()
                        .isInstanceOf(StudyException.class).hasMessageContaining("study '" + n + "': cannot end trial " + t.number())
                        .hasMessageContaining("PostgreSQL at ").hasMessageContaining("nothing of the call was kept");
            } finally {
                teller.shutdownNow();
            }
            assertThat(stored(admin, n, t.number())).isEqualTo("RUNNING 2 null");
            // the next call connects again
            TrialRecord told = study.tell(t, 2.0);
            assertThat(told.value()).contains(2.0);
            assertThat(stored(admin, n, t.number())).isEqualTo("SUCCEEDED 3 3");
        }
    }

    @Test
    void aDatabaseThatGoesAwayFailsCallsClearlyAndTheStudyGoesOnWhenItIsBack() throws Exception {
        URI db = URI.create(PostgresLab.URL.substring("jdbc:".length()));
        String n = name("away");
        try (TcpProxy proxy = new TcpProxy(db.getHost(), db.getPort() < 0 ? 5432 : db.getPort());
             Connection admin = PostgresLab.connect()) {
            String url = PostgresLab.URL.replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
            try (Study study = Study.named(n).space(PostgresLab.SPACE).tuner("TPE").storage(Storage.postgres(url, PostgresLab.USER, PostgresLab.PASSWORD))
                    .open()) {
                study.optimize(PostgresLab::sphere, 3);
                // a restart between two calls: the next call finds its connection broken and connects again
                proxy.cut();
                proxy.resume();
                study.optimize(PostgresLab::sphere, 1);

                Trial t = study.ask();
                proxy.cut();
                String where = "PostgreSQL at " + url.split("\\?")[0];
                assertThatThrownBy(() -> study.tell(t, 1.5)).isInstanceOf(StudyException.class)
                        .hasMessageContaining("cannot end trial " + t.number()).hasMessageContaining(where);
                assertThatThrownBy(study::ask).isInstanceOf(StudyException.class).hasMessageContaining(where).hasMessageContaining("cannot connect");
                assertThat(stored(admin, n, t.number())).isEqualTo("RUNNING 4 null");

                proxy.resume();
                assertThat(study.tell(t, 1.5).value()).contains(1.5);
                study.optimize(PostgresLab::sphere, 2);
                List<TrialRecord> trials = study.trials();
                assertThat(trials).hasSize(7).allMatch(r -> r.state() == TrialState.SUCCEEDED);
                assertThat(trials.stream().map(TrialRecord::parameterId)).doesNotHaveDuplicates();
                assertThat(stored(admin, n, t.number())).isEqualTo("SUCCEEDED 7 5");
            }
        }
    }

    /** A trial's state, the study's count of ended trials and the trial's end position, as stored. */
    private static String stored(Connection c, String name, int number) throws SQLException {
        c.setAutoCommit(true);
        try (PreparedStatement p = c.prepareStatement("SELECT t.state, s.ended_count, t.end_seq FROM tunekit_trials t JOIN tunekit_studies s"
                + " ON s.id = t.study_id WHERE s.name = ? AND t.number = ?")) {
            p.setString(1, name);
            p.setInt(2, number);
            try (ResultSet r = p.executeQuery()) {
                assertThat(r.next()).as("trial %d of %s is stored", number, name).isTrue();
                return r.getString(1) + " " + r.getLong(2) + " " + r.getObject(3);
            }
        }
    }

    /** The backend of the study {@code name} that waits for a lock (read outside the lock's transaction, whose view of the activity stays put). */
    private static int waitingBackend(String name) throws Exception {
        for (int i = 0; i < 300; i++) {
            try (Connection c = PostgresLab.connect(); PreparedStatement p = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE application_name = ? AND wait_event_type = 'Lock'")) {
                p.setString(1, "tunekit study " + name);
                try (ResultSet r = p.executeQuery()) {
                    if (r.next()) {
                        return r.getInt(1);
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no backend of study " + name + " waited for the trial's lock within 15 s");
    }
}
