package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.config.PollPolicy;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.jpa.internal.ReleaseChannel;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Release notification on PostgreSQL (table mode): a waiter of another application instance (another entity
 * manager factory, so another store and listening connection) is woken by the release, not by its poll; the
 * listening connection comes back after it is killed; a rolled-back release tells nothing; only a release of a key
 * with a live waiter's turn is told, and a waiter's ask that waited for such a release's row takes the key; and a
 * refused poll writes nothing.
 */
class PostgresNotificationTest {

    private static final int ROUNDS = 30;
    /**
     * Polls no more often than this (the turn ceilings never go below a policy's minimum), so a hand-off that
     * relied on polling would take up to this long, half of it on average.
     */
    private static final long POLL_MILLIS = 200;

    private static final long MEDIAN_BOUND_MILLIS = 20;

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService calls = Executors.newCachedThreadPool();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
        scheduler.shutdownNow();
        calls.shutdownNow();
    }

    private static Backend backend(Provider provider) {
        return new Backend(JpaDatabase.POSTGRESQL, provider);
    }

    private EntityManagerFactory factory(Backend backend) {
        EntityManagerFactory f = backend.newFactory();
        toClose.add(f::close);
        return f;
    }

    private JpaLockStore store(Backend backend, EntityManagerFactory factory, String table) {
        JpaLockStore store = backend.store(factory, table);
        toClose.add(store);
        return store;
    }

    private LockEngine engine(LockStore store) {
        LockEngine engine = new LockEngine(
                new ManagerSettings(
                        "",
                        Optional.empty(),
                        30_000,
                        10_000,
                        "",
                        0,
                        false,
                        new PollPolicy(POLL_MILLIS, 2 * POLL_MILLIS, 0)),
                store,
                scheduler,
                calls,
                LockListener.NONE);
        toClose.add(engine);
        return engine;
    }

    @Test
    void declaresReleaseNotificationOnlyOnceConnectedToPostgresqlInTableMode() {
        Backend backend = backend(Provider.HIBERNATE);
        EntityManagerFactory f = factory(backend);
        String table = backend.tableName("ncap");
        JpaLockStore table1 = store(backend, f, table);
        assertThat(table1.capabilities()).as("before connecting").doesNotContain(StoreCapability.RELEASE_NOTIFICATION);
        table1.database();
        assertThat(table1.capabilities()).as("connected to PostgreSQL").contains(StoreCapability.RELEASE_NOTIFICATION);
        JpaLockStore advisory = backend.store(f, table, LockMode.ADVISORY);
        toClose.add(advisory);
        advisory.database();
        assertThat(advisory.capabilities()).as("advisory mode").doesNotContain(StoreCapability.RELEASE_NOTIFICATION);
        assertThat(ReleaseChannel.name("baton_locks")).isEqualTo("baton_release:baton_locks");
        assertThat(ReleaseChannel.name("S".repeat(60))).hasSize("baton_release:".length() + 32);
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void aWaiterOfAnotherInstanceIsWokenByTheReleaseNotByItsPoll(Provider provider) throws Exception {
        Backend backend = backend(provider);
        String table = backend.tableName("nhand");
        LockEngine holder = engine(store(backend, factory(backend), table));
        LockEngine waiter = engine(store(backend, factory(backend), table));
        List<Long> delays = handOffs(holder, waiter, "hand:" + UUID.randomUUID(), ROUNDS);
        assertThat(waiter.store().capabilities()).contains(StoreCapability.RELEASE_NOTIFICATION);
        assertThat(median(delays)).as("median hand-off in ms of %s", delays).isLessThan(MEDIAN_BOUND_MILLIS);
        assertThat(delays)
                .as("no hand-off waited for a poll (%d ms apart)", POLL_MILLIS)
                .allSatisfy(d -> assertThat(d).isLessThan(POLL_MILLIS / 2));
    }

    /** The control: the same hand-offs with the notification hidden from the engines wait for the polls. */
    @Test
    void withoutTheNotificationTheSameHandOffsWaitForThePolls() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("npoll");
        LockEngine holder = engine(new Unnotified(store(backend, factory(backend), table)));
        LockEngine waiter = engine(new Unnotified(store(backend, factory(backend), table)));
        List<Long> delays = handOffs(holder, waiter, "poll:" + UUID.randomUUID(), 12);
        assertThat(median(delays))
                .as("median hand-off in ms of %s", delays)
                .isGreaterThanOrEqualTo(MEDIAN_BOUND_MILLIS);
    }

    @Test
    void aKilledListeningConnectionComesBackAndWaitersGetTheLockMeanwhile() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nkill");
        JpaLockStore waiterStore = store(backend, factory(backend), table);
        LockEngine holder = engine(store(backend, factory(backend), table));
        LockEngine waiter = engine(waiterStore);
        String key = "kill:" + UUID.randomUUID();
        handOffs(holder, waiter, key, 2); // subscribed
        String channel = ReleaseChannel.name(table);

        for (int kill = 1; kill <= 3; kill++) {
            long before = waiterStore.releaseListener().connections();
            assertThat(waiterStore.releaseListener().listening()).isTrue();
            // every listening session of the channel: the waiter's, and the holder's if its engine subscribed too
            assertThat(terminateListeners(channel))
                    .as("listening sessions killed")
                    .isPositive();
            // At once, before the listener is back: the waiter polls its way to the lock.
            HeldLock held = holder.acquire(key, 30_000, 10_000, true);
            Future<HeldLock> waiting = calls.submit(() -> waiter.acquire(key, 30_000, 10_000, true));
            Thread.sleep(50);
            held.close();
            waiting.get(5, TimeUnit.SECONDS).close();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiterStore.releaseListener().connections() > before
                            && waiterStore.releaseListener().listening());
            List<Long> delays = handOffs(holder, waiter, key, 5);
            assertThat(median(delays))
                    .as("hand-offs in ms after reconnection %d: %s", kill, delays)
                    .isLessThan(MEDIAN_BOUND_MILLIS);
        }
    }

    @Test
    void aReleaseRolledBackTellsNothing() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nroll");
        EntityManagerFactory f = factory(backend);
        JpaLockStore store = store(backend, f, table);
        RollingBack runner = new RollingBack();
        JpaLockStore rollingBack = JpaLockStore.builder(f)
                .table(table)
                .sequence(table + "_seq")
                .transactionRunner(runner)
                .build();
        toClose.add(rollingBack);
        JpaLockStore listening = store(backend, factory(backend), table);
        listening.database();
        List<String> heard = new CopyOnWriteArrayList<>();
        toClose.add(listening.onRelease(heard::add));

        String kept = "kept:" + UUID.randomUUID();
        String freed = "freed:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        assertThat(store.acquire(Acquisition.of(kept, owner, 60_000)).isAcquired())
                .isTrue();
        assertThat(store.acquire(Acquisition.of(freed, owner, 60_000)).isAcquired())
                .isTrue();
        waiterInTurn(store, kept); // only a release with a waiter's turn on the key is told
        waiterInTurn(store, freed);
        rollingBack.database(); // connected with commits
        runner.rollBack = true;
        assertThatThrownBy(() -> rollingBack.release(kept, owner))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("rolled back on purpose");
        // Notifications come in commit order: had the rolled-back one been sent, it would come first.
        assertThat(store.release(freed, owner)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(freed));
        assertThat(heard).as("keys heard").doesNotContain(kept);
        assertThat(store.inspect(kept)).as("the lock whose release rolled back").isPresent();
    }

    /**
     * Only a release of a key with a live waiter's turn notifies (the others have nobody waiting in turn to wake, and
     * skip PostgreSQL's notification queue): notifications come in commit order, so once the later release with a
     * turn is heard, the earlier one without was not sent.
     */
    @Test
    void onlyAReleaseOfAKeyWithALiveTurnIsTold() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nturn");
        JpaLockStore store = store(backend, factory(backend), table);
        JpaLockStore listening = store(backend, factory(backend), table);
        listening.database();
        List<String> heard = new CopyOnWriteArrayList<>();
        toClose.add(listening.onRelease(heard::add));
        String owner = JpaTestOwners.owner();
        String alone = "alone:" + UUID.randomUUID();
        String lapsed = "lapsed:" + UUID.randomUUID();
        String waited = "waited:" + UUID.randomUUID();
        for (String key : List.of(alone, lapsed, waited)) {
            assertThat(store.acquire(Acquisition.of(key, owner, 60_000)).isAcquired())
                    .isTrue();
        }
        assertThat(store.acquire(new Acquisition(lapsed, JpaTestOwners.owner(), 60_000, 0, new Turn("gone", 0, 1)))
                        .isNextInTurn())
                .isTrue();
        waiterInTurn(store, waited);
        Thread.sleep(20); // the turn of "lapsed" (1 ms) is over

        assertThat(store.release(alone, owner)).isTrue();
        assertThat(store.release(lapsed, owner)).isTrue();
        assertThat(store.release(waited, owner)).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains(waited));
        assertThat(heard)
                .as("keys heard: a release without a waiter, one whose waiter's turn had lapsed, one with a turn")
                .containsExactly(waited);
    }

    /**
     * The interleaving a release that notifies nobody must not turn into a missed wake-up: a waiter's ask with its turn
     * reads the key as held (its snapshot), and waits for the row while the release commits; the release saw no turn
     * and told nobody. The ask must take the freed key then, not answer "held" and leave the waiter to its next poll.
     * The release is done by hand here, in a transaction kept open until the ask waits for its row lock.
     */
    @Test
    void aWaitersAskHeldUpByAReleaseTakesTheFreedKey() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nrace");
        JpaLockStore store = store(backend, factory(backend), table);
        String key = "race:" + UUID.randomUUID();
        String holder = JpaTestOwners.owner();
        long holderToken = store.acquire(Acquisition.of(key, holder, 60_000)).fencingToken();

        try (Connection releasing = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                Connection watching = TestDatabases.connect(JpaDatabase.POSTGRESQL)) {
            releasing.setAutoCommit(false);
            try (Statement st = releasing.createStatement()) {
                // what the store's release does to the row (it would notify nobody: the key has no turn)
                assertThat(st.executeUpdate(
                                "UPDATE " + table + " SET expires_at = clock_timestamp() - INTERVAL '1 second'"
                                        + " WHERE lock_key = '" + key + "'"))
                        .isEqualTo(1);
            }
            Future<AcquireResult> asking = calls.submit(() -> store.acquire(new Acquisition(
                    key, JpaTestOwners.owner(), 60_000, 10_000, new Turn(JpaTestOwners.owner(), 50, 60_000))));
            await().atMost(Duration.ofSeconds(10)).until(() -> waitsForARowLock(watching, table));
            releasing.commit();

            AcquireResult answer = asking.get(10, TimeUnit.SECONDS);
            assertThat(answer.isAcquired())
                    .as("the ask that waited for the release's row lock: %s", answer)
                    .isTrue();
            assertThat(answer.fencingToken()).isGreaterThan(holderToken);
        }
    }

    /** @return whether a session waits for a lock in a statement on {@code table} */
    private static boolean waitsForARowLock(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE '%" + table + "%turn_waiter%' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }

    /** A waiter of another instance asks with its turn while the key is held, as an engine's waiter does. */
    private static void waiterInTurn(JpaLockStore store, String key) {
        assertThat(store.acquire(new Acquisition(
                                key, JpaTestOwners.owner(), 60_000, 0, new Turn(JpaTestOwners.owner(), 0, 60_000)))
                        .isNextInTurn())
                .as("a waiter's ask with its turn on %s", key)
                .isTrue();
    }

    /**
     * Two waiters of two other instances: the holder's release wakes them, the first takes the key, and its
     * own release wakes the second, neither waiting for a poll.
     */
    @Test
    void theSecondWaiterHearsTheFirstWaitersRelease() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nthree");
        LockEngine holder = engine(store(backend, factory(backend), table));
        LockEngine first = engine(store(backend, factory(backend), table));
        LockEngine second = engine(store(backend, factory(backend), table));
        handOffs(holder, first, "warm:" + UUID.randomUUID(), 1); // every engine subscribed
        handOffs(holder, second, "warm:" + UUID.randomUUID(), 1);
        List<Long> delays = new ArrayList<>();
        for (int round = 0; round < 10; round++) {
            String key = "three:" + UUID.randomUUID();
            HeldLock held = holder.acquire(key, 30_000, 10_000, true);
            List<Long> releasedAt = new CopyOnWriteArrayList<>();
            List<Future<Long>> waiting = new ArrayList<>();
            for (LockEngine waiter : List.of(first, second)) {
                waiting.add(calls.submit(() -> {
                    HeldLock got = waiter.acquire(key, 30_000, 10_000, true);
                    long acquiredAt = System.nanoTime();
                    Thread.sleep(20);
                    releasedAt.add(System.nanoTime());
                    got.close();
                    return acquiredAt;
                }));
                Thread.sleep(30); // the first claims the turn, the second waits behind it
            }
            Thread.sleep(POLL_MILLIS / 4 + ThreadLocalRandom.current().nextLong(POLL_MILLIS / 2));
            held.close();
            long a = waiting.get(0).get(10, TimeUnit.SECONDS);
            long b = waiting.get(1).get(10, TimeUnit.SECONDS);
            long secondAcquired = Math.max(a, b);
            delays.add(TimeUnit.NANOSECONDS.toMillis(secondAcquired - releasedAt.get(0)));
        }
        assertThat(delays)
                .as("hand-offs in ms from the first waiter's release to the second waiter")
                .allSatisfy(d -> assertThat(d).isLessThan(POLL_MILLIS / 2));
    }

    @Test
    void aRefusedPollWritesNothing() throws Exception {
        Backend backend = backend(Provider.HIBERNATE);
        String table = backend.tableName("nread");
        JpaLockStore store = store(backend, factory(backend), table);
        String key = "read:" + UUID.randomUUID();
        assertThat(store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000))
                        .isAcquired())
                .isTrue();
        // The oldest waiter holds the turn; a younger one polls without changing it.
        String oldest = JpaTestOwners.owner();
        assertThat(store.acquire(new Acquisition(
                                key, JpaTestOwners.owner(), 60_000, 0, new Turn(oldest, 60_000, 60_000)))
                        .isNextInTurn())
                .isTrue();
        boolean embedded = System.getenv(TestDatabases.POSTGRES_URL_VARIABLE) == null;

        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL)) {
            List<String> before = state(c, table, key, embedded);
            for (int i = 0; i < 50; i++) {
                AcquireResult plain = store.acquire(Acquisition.of(key, JpaTestOwners.owner(), 60_000));
                assertThat(plain.isAcquired()).isFalse();
                assertThat(plain.remainingLeaseMillis()).isPresent();
                AcquireResult younger = store.acquire(new Acquisition(
                        key, JpaTestOwners.owner(), 60_000, 0, new Turn(JpaTestOwners.owner(), 10, 1_000)));
                assertThat(younger.isAcquired() || younger.isNextInTurn()).isFalse();
            }
            assertThat(state(c, table, key, embedded))
                    .as(
                            "row version and lock (xmin, xmax, ctid), sequence, next transaction id after 100 refused polls")
                    .isEqualTo(before);
            // The control: a write shows in the same figures.
            store.acquire(Acquisition.of("other:" + UUID.randomUUID(), JpaTestOwners.owner(), 60_000));
            assertThat(state(c, table, key, embedded)).isNotEqualTo(before);
        }
    }

    private static List<String> state(Connection c, String table, String key, boolean withXids) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT xmin::text, xmax::text, ctid::text FROM " + table
                    + " WHERE lock_key = '" + key.replace("'", "''") + "'")) {
                assertThat(rs.next()).isTrue();
                out.add(rs.getString(1) + "/" + rs.getString(2) + "/" + rs.getString(3));
            }
            try (ResultSet rs = st.executeQuery("SELECT last_value, is_called FROM " + table + "_seq")) {
                rs.next();
                out.add(rs.getLong(1) + "/" + rs.getBoolean(2));
            }
            if (withXids) {
                // The next transaction id to be assigned: no transaction id at all was taken (the database is this
                // JVM's).
                try (ResultSet rs = st.executeQuery("SELECT txid_snapshot_xmax(txid_current_snapshot())")) {
                    rs.next();
                    out.add("next xid " + rs.getLong(1));
                }
            }
        }
        return out;
    }

    private static int terminateListeners(String channel) throws SQLException {
        try (Connection c = TestDatabases.connect(JpaDatabase.POSTGRESQL);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE query = 'LISTEN \"" + channel + "\"' AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * Rounds of: the holder takes the key, the waiter starts waiting for it, the holder keeps it a random
     * while (so the waiter is parked between polls) and lets go. Each delay is from the release call to the
     * waiter's acquisition, in ms.
     */
    private List<Long> handOffs(LockEngine holder, LockEngine waiter, String key, int rounds) throws Exception {
        List<Long> delays = new ArrayList<>();
        for (int round = 0; round <= rounds; round++) {
            HeldLock held = holder.acquire(key, 30_000, 10_000, true);
            Future<Long> waiting = calls.submit(() -> {
                try (HeldLock got = waiter.acquire(key, 30_000, 10_000, true)) {
                    return System.nanoTime();
                }
            });
            Thread.sleep(POLL_MILLIS / 4 + ThreadLocalRandom.current().nextLong(POLL_MILLIS / 2));
            long releasedAt = System.nanoTime();
            held.close();
            long acquiredAt = waiting.get(10, TimeUnit.SECONDS);
            if (round > 0) { // the first round subscribes
                delays.add(TimeUnit.NANOSECONDS.toMillis(acquiredAt - releasedAt));
            }
        }
        return delays;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** The store with its release notification hidden: the engine polls. */
    private static final class Unnotified extends ForwardingLockStore {
        Unnotified(LockStore delegate) {
            super(delegate);
        }

        @Override
        public Set<StoreCapability> capabilities() {
            Set<StoreCapability> all = EnumSet.noneOf(StoreCapability.class);
            all.addAll(super.capabilities());
            all.remove(StoreCapability.RELEASE_NOTIFICATION);
            return all;
        }
    }

    /** Once told to, runs the store's statement in a transaction, then rolls it back: a commit that did not happen. */
    private static final class RollingBack implements TransactionRunner {
        volatile boolean rollBack;

        @Override
        public <T> T inNewTransaction(
                EntityManagerFactory factory, java.util.function.Function<EntityManager, T> work) {
            EntityManager em = factory.createEntityManager();
            try {
                em.getTransaction().begin();
                T result = work.apply(em);
                if (!rollBack) {
                    em.getTransaction().commit();
                    return result;
                }
                em.getTransaction().rollback();
                throw new IllegalStateException("rolled back on purpose");
            } finally {
                if (em.getTransaction().isActive()) {
                    em.getTransaction().rollback();
                }
                em.close();
            }
        }
    }
}
