package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.TestDatabases;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Holder;
import dev.baton.spi.Lease;
import dev.baton.spi.LockArguments;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.spi.Turn;
import dev.baton.tck.Together;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Shared leases in table mode ({@link StoreCapability#SHARED_LOCKS}) on a real database: permits and read locks
 * beside exclusive leases on one key, each lease with its own owner, token and expiry; what a refusal reports;
 * expiry of a crashed holder's permit; turns that keep readers out while a writer waits; fences that pass exclusive
 * tokens only; and, with real threads of two store instances on two factories (two processes), never more than N
 * holders of a permit key, never an exclusive holder beside a shared one, and tokens that only grow across modes.
 */
@Tag("shared")
public abstract class SharedLeasesSuite {

    private static final long LONG = 60_000;
    private static final long KEEP = 30_000;

    private Backend backend;
    private String table;
    private JpaLockStore store;

    /** @return the database and provider to test */
    protected abstract Backend backend();

    @BeforeEach
    void createStore() {
        backend = backend();
        table = backend.tableName("shared");
        store = backend.store(table);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private static String owner() {
        return JpaTestOwners.owner();
    }

    private static String key(String name) {
        return name + ":" + UUID.randomUUID();
    }

    private static Acquisition shared(String key, String owner, long ttl, int limit) {
        return new Acquisition(key, owner, ttl, LockArguments.STORE_BOUND, null, limit);
    }

    private static Acquisition shared(String key, String owner, long ttl, int limit, Turn turn) {
        return new Acquisition(key, owner, ttl, 2_000, turn, limit);
    }

    /**
     * Found by the store properties ({@code PropertiesSuite}, on H2), shrunk to two calls: a second shared request of
     * an owner holding a shared lease of a key with room claimed the key's turn (answered next in turn with its own
     * lease's remaining time), which kept the key from every other caller; as for a lock, it changes nothing.
     */
    @Test
    void anOwnerAskingAgainBesideItsOwnSharedLeaseClaimsNoTurn() {
        String key = key("again");
        String owner = owner();
        assertThat(store.acquire(shared(key, owner, LONG, Acquisition.UNLIMITED))
                        .isAcquired())
                .isTrue();

        AcquireResult again = store.acquire(shared(key, owner, LONG, 2, new Turn("waiter-0", 0, KEEP)));

        assertThat(again.isAcquired())
                .as("a second lease of one owner: %s", again)
                .isFalse();
        assertThat(again.isNextInTurn())
                .as("the turn claimed beside its own lease: %s", again)
                .isFalse();
        assertThat(store.acquire(shared(key, owner(), LONG, 2)).isAcquired())
                .as("another caller takes the place left")
                .isTrue();
    }

    @Test
    void tableModeDeclaresSharedLocksAndAdvisoryModeRefusesThem() {
        assertThat(store.capabilities()).contains(StoreCapability.SHARED_LOCKS, StoreCapability.WAITING_TURNS);
        if (backend.database() == JpaDatabase.H2) {
            return; // no advisory mode on H2
        }
        try (JpaLockStore advisory = backend.store(backend.sharedFactory(), table, LockMode.ADVISORY)) {
            assertThat(advisory.capabilities()).doesNotContain(StoreCapability.SHARED_LOCKS);
            assertThatThrownBy(() -> advisory.acquire(shared(key("adv"), owner(), LONG, 2)))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("advisory")
                    .hasMessageContaining("SHARED_LOCKS");
        }
    }

    @Test
    void aPermitKeyHoldsUpToItsLimitEachLeaseWithItsOwnTokenAndExpiry() {
        String key = key("permits");
        String a = owner();
        String b = owner();
        AcquireResult first = store.acquire(shared(key, a, 20_000, 2));
        AcquireResult second = store.acquire(shared(key, b, LONG, 2));
        assertThat(first.isAcquired()).isTrue();
        assertThat(second.isAcquired()).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());

        AcquireResult third = store.acquire(shared(key, owner(), LONG, 2));
        assertThat(third.isAcquired()).as("a third permit of two").isFalse();
        assertThat(third.remainingLeaseMillis().orElse(-1))
                .as("a full key: the shortest lease")
                .isBetween(1L, 20_000L);
        AcquireResult exclusive = store.acquire(Acquisition.of(key, owner(), LONG));
        assertThat(exclusive.isAcquired()).as("exclusive beside permits").isFalse();
        assertThat(exclusive.remainingLeaseMillis().orElse(-1))
                .as("refused by shared leases: the longest")
                .isBetween(20_001L, LONG);
        assertThat(store.acquire(shared(key, a, LONG, 3)).isAcquired())
                .as("a second lease of one owner")
                .isFalse();

        Holder newest = store.inspect(key).orElseThrow();
        assertThat(newest.owner()).isEqualTo(b);
        assertThat(newest.fencingToken()).isEqualTo(second.fencingToken());

        // each lease renews and releases alone
        assertThat(store.renew(Renewal.of(key, a, LONG))).isTrue();
        assertThat(store.renew(Renewal.of(key, owner(), LONG))).isFalse();
        assertThat(store.release(key, b)).isTrue();
        assertThat(store.release(key, b)).as("released once").isFalse();
        assertThat(store.renew(Renewal.of(key, b, LONG)))
                .as("a released lease is not renewed")
                .isFalse();
        assertThat(store.inspect(key).orElseThrow().owner()).isEqualTo(a);

        // each acquisition is judged by its own limit: three of three, then one of two is refused
        String c = owner();
        String d = owner();
        assertThat(store.acquire(shared(key, c, LONG, 3)).isAcquired()).isTrue();
        assertThat(store.acquire(shared(key, d, LONG, 3)).isAcquired()).isTrue();
        assertThat(store.acquire(shared(key, owner(), LONG, 2)).isAcquired()).isFalse();

        for (String holder : List.of(a, c, d)) {
            assertThat(store.release(key, holder)).isTrue();
        }
        assertThat(store.inspect(key)).as("no lease left").isEmpty();
        String writer = owner();
        AcquireResult taken = store.acquire(Acquisition.of(key, writer, LONG));
        assertThat(taken.isAcquired())
                .as("exclusive once the last permit is released")
                .isTrue();
        assertThat(taken.fencingToken()).isGreaterThan(second.fencingToken());
        AcquireResult reader = store.acquire(shared(key, owner(), LONG, Acquisition.UNLIMITED));
        assertThat(reader.isAcquired()).as("a read lock beside a writer").isFalse();
        assertThat(reader.remainingLeaseMillis().orElse(-1)).isBetween(1L, LONG);
        assertThat(store.inspect(key).orElseThrow().owner()).isEqualTo(writer);
        assertThat(store.release(key, writer)).isTrue();
        AcquireResult afterWriter = store.acquire(shared(key, owner(), LONG, 1));
        assertThat(afterWriter.fencingToken()).isGreaterThan(taken.fencingToken());
    }

    @Test
    void readLocksHaveNoLimitAndAWriterWaitsForTheLast() {
        String key = key("readers");
        List<String> readers = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            String reader = owner();
            readers.add(reader);
            assertThat(store.acquire(shared(key, reader, LONG, Acquisition.UNLIMITED))
                            .isAcquired())
                    .isTrue();
        }
        for (String reader : readers.subList(0, 24)) {
            assertThat(store.release(key, reader)).isTrue();
            assertThat(store.acquire(Acquisition.of(key, owner(), LONG, 0)).isAcquired())
                    .as("a writer while a reader is left")
                    .isFalse();
        }
        assertThat(store.release(key, readers.get(24))).isTrue();
        String writer = owner();
        assertThat(store.acquire(Acquisition.of(key, writer, LONG, 0)).isAcquired())
                .as("the writer, at once after the last reader")
                .isTrue();
        assertThat(store.release(key, writer)).isTrue();
    }

    @Test
    void renewAllRenewsExclusiveAndSharedLeasesAndNamesOnlyTheLiveOnes() {
        String exclusiveKey = key("batch-x");
        String sharedKey = key("batch-s");
        String x = owner();
        String s1 = owner();
        String s2 = owner();
        String gone = owner();
        assertThat(store.acquire(Acquisition.of(exclusiveKey, x, LONG)).isAcquired())
                .isTrue();
        for (String s : List.of(s1, s2, gone)) {
            assertThat(store.acquire(shared(sharedKey, s, LONG, 5)).isAcquired())
                    .isTrue();
        }
        assertThat(store.release(sharedKey, gone)).isTrue();
        Set<Lease> asked = Set.of(
                new Lease(exclusiveKey, x),
                new Lease(sharedKey, s1),
                new Lease(sharedKey, s2),
                new Lease(sharedKey, gone),
                new Lease(sharedKey, owner()),
                new Lease(key("never"), owner()));
        assertThat(store.renewAll(asked, 2_000, LockArguments.STORE_BOUND))
                .containsExactlyInAnyOrder(
                        new Lease(exclusiveKey, x), new Lease(sharedKey, s1), new Lease(sharedKey, s2));
        // the shared leases now end in 2 s, and so does the key's row: a writer gets in after them
        AcquireResult writer = store.acquire(Acquisition.of(sharedKey, owner(), LONG));
        assertThat(writer.isAcquired()).isFalse();
        assertThat(writer.remainingLeaseMillis().orElse(-1)).isBetween(1L, 2_000L);
    }

    @Test
    void aCrashedHoldersPermitIsFreeAfterItsTtl() {
        String key = key("crash");
        String crashed = owner();
        long ttl = 700;
        long start = System.nanoTime();
        assertThat(store.acquire(shared(key, crashed, ttl, 1)).isAcquired()).isTrue();
        AcquireResult refused = store.acquire(shared(key, owner(), LONG, 1));
        assertThat(refused.isAcquired()).isFalse();
        assertThat(refused.remainingLeaseMillis().orElse(-1)).isBetween(1L, ttl);
        String next = owner();
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> store.acquire(shared(key, next, LONG, 1)).isAcquired());
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .as("ms until the permit was free")
                .isGreaterThanOrEqualTo(ttl);
        assertThat(store.renew(Renewal.of(key, crashed, LONG)))
                .as("an ended lease is not renewed")
                .isFalse();
        assertThat(store.release(key, crashed)).isFalse();
        assertThat(store.release(key, next)).isTrue();
        // the ended lease is gone for writers too, at once
        String writer = owner();
        assertThat(store.acquire(Acquisition.of(key, writer, LONG, 0)).isAcquired())
                .isTrue();
        assertThat(store.release(key, writer)).isTrue();
    }

    @Test
    void aWaitingWritersTurnKeepsNewReadersOut() {
        String key = key("turn");
        String reader = owner();
        assertThat(store.acquire(shared(key, reader, LONG, Acquisition.UNLIMITED))
                        .isAcquired())
                .isTrue();
        Turn writersTurn = new Turn("w-" + owner(), 100, KEEP);
        AcquireResult writer = store.acquire(new Acquisition(key, owner(), LONG, 1_000, writersTurn));
        assertThat(writer.isNextInTurn())
                .as("the writer waits its turn: %s", writer)
                .isTrue();
        assertThat(writer.remainingLeaseMillis().orElse(-1)).isBetween(1L, LONG);

        AcquireResult plainReader = store.acquire(shared(key, owner(), LONG, Acquisition.UNLIMITED));
        assertThat(plainReader.isAcquired())
                .as("a new reader while the writer holds the turn")
                .isFalse();
        assertThat(plainReader.isNextInTurn()).isFalse();
        AcquireResult youngerReader =
                store.acquire(shared(key, owner(), LONG, Acquisition.UNLIMITED, new Turn("r-" + owner(), 10, KEEP)));
        assertThat(youngerReader.isAcquired())
                .as("a reader that waited less long")
                .isFalse();
        assertThat(youngerReader.isNextInTurn()).isFalse();

        assertThat(store.release(key, reader)).isTrue();
        String writerOwner = owner();
        AcquireResult taken = store.acquire(new Acquisition(key, writerOwner, LONG, 1_000, writersTurn));
        assertThat(taken.isAcquired()).as("the writer, once the reader is gone").isTrue();

        // a reader that waits takes the turn from behind the writer, and the key after it
        Turn readersTurn = new Turn("r-" + owner(), 50, KEEP);
        AcquireResult waitingReader = store.acquire(shared(key, owner(), LONG, 2, readersTurn));
        assertThat(waitingReader.isNextInTurn()).as("%s", waitingReader).isTrue();
        assertThat(store.acquire(Acquisition.of(key, owner(), LONG)).isAcquired())
                .isFalse();
        assertThat(store.release(key, writerOwner)).isTrue();
        assertThat(store.acquire(Acquisition.of(key, owner(), LONG)).isAcquired())
                .as("a plain writer while the reader holds the turn")
                .isFalse();
        String readerOwner = owner();
        assertThat(store.acquire(shared(key, readerOwner, LONG, 2, readersTurn)).isAcquired())
                .isTrue();
        assertThat(store.leaveTurn(key, readersTurn.waiter()))
                .as("taking the key ended the turn")
                .isFalse();
        assertThat(store.release(key, readerOwner)).isTrue();
    }

    /**
     * Readers that come and go without pause would hold the key for ever; a writer that waits its turn gets it,
     * since no new reader starts while the writer's turn lives.
     */
    @Test
    void readersDoNotStarveAWriterThatWaitsItsTurn() throws Exception {
        String key = key("starve");
        AtomicBoolean writerDone = new AtomicBoolean();
        AtomicBoolean writerTook = new AtomicBoolean();
        AtomicInteger readsWhileTurn = new AtomicInteger();
        AtomicLong turnClaimedAt = new AtomicLong(Long.MAX_VALUE);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Together.run(5, Duration.ofSeconds(90), thread -> {
            if (thread == 0) {
                Thread.sleep(300); // the readers are under way
                String waiter = "w-" + owner();
                String writer = owner();
                long since = System.nanoTime();
                while (true) {
                    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
                    AcquireResult result =
                            store.acquire(new Acquisition(key, writer, LONG, 1_000, new Turn(waiter, waited, 10_000)));
                    if (result.isAcquired()) {
                        writerTook.set(true);
                        break;
                    }
                    if (result.isNextInTurn()) {
                        turnClaimedAt.compareAndSet(Long.MAX_VALUE, System.nanoTime());
                    }
                    if (waited > 30_000) {
                        failures.add("the writer waited " + waited + " ms");
                        break;
                    }
                    Thread.sleep(5);
                }
                writerDone.set(true);
                store.release(key, writer);
                return;
            }
            while (!writerDone.get()) {
                String reader = owner();
                long before = System.nanoTime();
                if (store.acquire(shared(key, reader, 5_000, Acquisition.UNLIMITED))
                        .isAcquired()) {
                    if (before - turnClaimedAt.get() > 0 && !writerTook.get()) {
                        readsWhileTurn.incrementAndGet(); // began after the writer's turn was claimed, before it took
                    }
                    Thread.sleep(ThreadLocalRandom.current().nextInt(20, 60));
                    store.release(key, reader);
                }
            }
        });
        assertThat(failures).isEmpty();
        assertThat(turnClaimedAt.get()).as("the writer held the turn").isNotEqualTo(Long.MAX_VALUE);
        assertThat(readsWhileTurn.get())
                .as("readers that started while the writer's turn lived")
                .isZero();
    }

    /**
     * Real threads of two store instances on two factories (two application instances), with turns as the
     * runtime waits: readers with a limit of N and writers on one key. Never more than N shared holders, never an
     * exclusive holder beside another holder, every token distinct and greater than every token handed out before
     * its acquisition began (a writer's: than every earlier one), and the key's row keeps the greatest.
     */
    @Test
    void permitsAndWritersOfTwoInstancesNeverOverlapAndTokensOnlyGrow() throws Exception {
        int limit = 3;
        int threads = 8;
        int rounds = backend.database() == JpaDatabase.H2 ? 120 : 60;
        String key = key("race");
        EntityManagerFactory otherFactory = backend.newFactory();
        try (JpaLockStore other = backend.store(otherFactory, table)) {
            List<JpaLockStore> stores = List.of(store, other);
            AtomicInteger sharedHolders = new AtomicInteger();
            AtomicInteger exclusiveHolders = new AtomicInteger();
            AtomicInteger mostShared = new AtomicInteger();
            AtomicLong greatestToken = new AtomicLong();
            Set<Long> tokens = ConcurrentHashMap.newKeySet();
            BlockingQueue<String> violations = new LinkedBlockingQueue<>();
            AtomicInteger exclusiveTaken = new AtomicInteger();
            Together.run(threads, Duration.ofMinutes(4), thread -> {
                JpaLockStore mine = stores.get(thread % 2);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (int round = 0; round < rounds && violations.isEmpty(); round++) {
                    boolean exclusive = random.nextInt(4) == 0;
                    String owner = owner();
                    Turn turn = new Turn("w" + thread + "-" + round + "-" + UUID.randomUUID(), 0, 3_000);
                    long since = System.nanoTime();
                    long handedOutBefore = greatestToken.get();
                    AcquireResult result;
                    while (true) {
                        turn = new Turn(turn.waiter(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), 3_000);
                        result = mine.acquire(new Acquisition(
                                key, owner, 10_000, 2_000, turn, exclusive ? Acquisition.EXCLUSIVE : limit));
                        if (result.isAcquired()) {
                            break;
                        }
                        Thread.sleep(1);
                    }
                    long token = result.fencingToken();
                    if (!tokens.add(token)) {
                        violations.add("token " + token + " handed out twice");
                    }
                    if (token <= handedOutBefore) {
                        violations.add("token " + token + " not above " + handedOutBefore + ", handed out before");
                    }
                    if (exclusive) {
                        int holders = exclusiveHolders.incrementAndGet();
                        int readers = sharedHolders.get();
                        if (holders != 1 || readers != 0) {
                            violations.add(holders + " writers and " + readers + " readers, token " + token);
                        }
                        // every earlier holder has released: every token so far was handed out before this one
                        long before = greatestToken.getAndAccumulate(token, Math::max);
                        if (token <= before) {
                            violations.add("writer's token " + token + " after " + before);
                        }
                        exclusiveTaken.incrementAndGet();
                    } else {
                        int readers = sharedHolders.incrementAndGet();
                        mostShared.accumulateAndGet(readers, Math::max);
                        int writers = exclusiveHolders.get();
                        if (readers > limit || writers != 0) {
                            violations.add(
                                    readers + " readers of " + limit + " and " + writers + " writers, token " + token);
                        }
                        greatestToken.accumulateAndGet(token, Math::max);
                    }
                    Thread.sleep(random.nextInt(3));
                    (exclusive ? exclusiveHolders : sharedHolders).decrementAndGet();
                    if (!mine.release(key, owner)) {
                        violations.add("the release of token " + token + " failed");
                    }
                }
            });
            assertThat(violations).isEmpty();
            assertThat(exclusiveTaken.get()).as("writers that got in").isPositive();
            assertThat(mostShared.get()).as("readers at once, at most").isGreaterThan(1);
            assertThat(rowToken(key)).as("the key's row keeps its last token").isEqualTo(greatestToken.get());
        } finally {
            otherFactory.close();
        }
    }

    @Test
    void releasingASharedLeaseIsNotified() throws Exception {
        if (!store.capabilities().contains(StoreCapability.RELEASE_NOTIFICATION)) {
            store.database(); // connects: the capability comes with the database
        }
        if (!store.capabilities().contains(StoreCapability.RELEASE_NOTIFICATION)) {
            assertThat(backend.database()).isNotEqualTo(JpaDatabase.POSTGRESQL);
            return;
        }
        String key = key("notify");
        BlockingQueue<String> released = new LinkedBlockingQueue<>();
        try (AutoCloseable subscription = store.onRelease(released::add)) {
            String a = owner();
            String b = owner();
            assertThat(store.acquire(shared(key, a, LONG, 2)).isAcquired()).isTrue();
            assertThat(store.acquire(shared(key, b, LONG, 2)).isAcquired()).isTrue();
            assertThat(store.release(key, a)).isTrue();
            assertThat(released.poll(10, TimeUnit.SECONDS)).isEqualTo(key);
            assertThat(store.release(key, owner())).isFalse();
            assertThat(store.release(key, b)).isTrue();
            assertThat(released.poll(10, TimeUnit.SECONDS)).isEqualTo(key);
            assertThat(released.poll(300, TimeUnit.MILLISECONDS))
                    .as("a release that freed nothing is not told")
                    .isNull();
        }
    }

    /** A fenced write checks exclusive leases: the token of a shared lease, even the newest, never passes. */
    @Test
    void aSharedLeasesTokenPassesNoFence() {
        String data = table + "_data";
        backend.execute("CREATE TABLE IF NOT EXISTS " + data + " (id INT PRIMARY KEY, n INT NOT NULL)");
        int id = Math.abs(UUID.randomUUID().hashCode() % 1_000_000);
        backend.execute("INSERT INTO " + data + " (id, n) VALUES (" + id + ", 0)");
        FencedWrites fenced = store.fencedWrites();
        String update = "UPDATE " + data + " SET n = n + 1 WHERE id = ?1 AND {fence}";
        String key = key("fence");
        String reader = owner();
        long token = store.acquire(shared(key, reader, LONG, 2)).fencingToken();
        assertThat(fencedUpdate(fenced, key, token, update, id))
                .as("the newest shared lease's token")
                .isZero();
        assertThat(store.release(key, reader)).isTrue();
        String writer = owner();
        long writers = store.acquire(Acquisition.of(key, writer, LONG)).fencingToken();
        assertThat(fencedUpdate(fenced, key, writers, update, id))
                .as("an exclusive lease's token")
                .isEqualTo(1);
        assertThat(store.release(key, writer)).isTrue();
    }

    private int fencedUpdate(FencedWrites fenced, String key, long token, String update, int id) {
        EntityManager em = backend.sharedFactory().createEntityManager();
        try {
            em.getTransaction().begin();
            int rows = fenced.executeUpdate(em, key, token, update, id);
            em.getTransaction().commit();
            return rows;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.close();
        }
    }

    @Test
    void theKeysRowSummarizesItsSharedLeases() throws SQLException {
        String key = key("row");
        String a = owner();
        assertThat(store.acquire(shared(key, a, LONG, 2)).isAcquired()).isTrue();
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement("SELECT owner FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).as("no single owner").isEmpty();
            }
        }
        assertThat(store.release(key, a)).isTrue();
        assertThat(sharedRows(key)).as("a released lease leaves no row").isZero();
    }

    private long rowToken(String key) throws SQLException {
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps = c.prepareStatement("SELECT token FROM " + table + " WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private long sharedRows(String key) throws SQLException {
        try (Connection c = TestDatabases.connect(backend.database());
                PreparedStatement ps =
                        c.prepareStatement("SELECT COUNT(*) FROM " + table + "_shared WHERE lock_key = ?")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
