package dev.baton.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.impl.config.ManagerSettings;
import dev.baton.impl.engine.HeldLock;
import dev.baton.impl.engine.LockEngine;
import dev.baton.impl.engine.LockListener;
import dev.baton.jpa.testing.Backend;
import dev.baton.jpa.testing.Provider;
import dev.baton.jpa.testing.RowLocks;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import dev.baton.tck.Together;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-over on PostgreSQL (table mode): one statement that passes a held key to the next owner, declared once
 * the store has connected; it locks the key's row as a takeover does, so it waits for a fenced write of the former
 * holder; and the threads of one engine hand a key over in it, never holding it together.
 */
class PostgresHandOverTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService calls = Executors.newCachedThreadPool();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final Backend backend = new Backend(JpaDatabase.POSTGRESQL, Provider.HIBERNATE);

    @AfterEach
    void tearDown() throws Exception {
        Collections.reverse(toClose);
        for (AutoCloseable c : toClose) {
            c.close();
        }
        scheduler.shutdownNow();
        calls.shutdownNow();
    }

    private JpaLockStore store(String table) {
        JpaLockStore store = backend.store(table);
        toClose.add(store);
        return store;
    }

    @Test
    void declaredOnceConnectedToPostgresqlInTableModeOnly() {
        JpaLockStore table = store(backend.tableName("hcap"));
        assertThat(table.capabilities()).as("before connecting").doesNotContain(StoreCapability.HAND_OVER);
        table.database();
        assertThat(table.capabilities()).as("connected to PostgreSQL").contains(StoreCapability.HAND_OVER);

        Backend mariadb = new Backend(JpaDatabase.MARIADB, Provider.HIBERNATE);
        JpaLockStore other = mariadb.store(mariadb.tableName("hcap"));
        toClose.add(other);
        other.database();
        assertThat(other.capabilities()).as("MariaDB").doesNotContain(StoreCapability.HAND_OVER);
    }

    /**
     * Found by the store properties ({@code PropertiesSuite}), shrunk to one call: a hand-over of a free key by a
     * caller that does not hold it answered not acquired; it is the next owner's acquisition (S-3.7-06). And, as the
     * properties found in the Redis store's same path: a hand-over by the holder of a shared lease released that
     * lease, where a caller without an exclusive lock releases nothing.
     */
    @Test
    void aHandOverOfAFreeKeyByACallerThatDoesNotHoldItIsTheNextOwnersAcquisition() {
        JpaLockStore table = store(backend.tableName("hfree"));
        table.database();
        String key = "free:" + UUID.randomUUID();

        HandOverResult result = table.handOver("owner-0", Acquisition.of(key, "owner-0", 120_000));

        assertThat(result.released()).isFalse();
        assertThat(result.next().isAcquired()).as("%s", result).isTrue();
        assertThat(table.release(key, "owner-0")).isTrue();

        String shared = "shared:" + UUID.randomUUID();
        assertThat(table.acquire(new Acquisition(shared, "reader", 120_000, 2_000, null, 2))
                        .isAcquired())
                .isTrue();
        HandOverResult byReader = table.handOver("reader", Acquisition.of(shared, "writer", 120_000));
        assertThat(byReader.released())
                .as("a shared lease is not handed over: %s", byReader)
                .isFalse();
        assertThat(byReader.next().isAcquired())
                .as("the writer beside the reader: %s", byReader)
                .isFalse();
        assertThat(table.release(shared, "reader"))
                .as("the reader's lease stays")
                .isTrue();
    }

    @Test
    void aHandOverWaitsForTheFormerHoldersFencedWriteAsATakeoverDoes() throws Exception {
        String table = backend.tableName("hfence");
        JpaLockStore store = store(table);
        String key = "hfence:" + UUID.randomUUID();
        String owner = JpaTestOwners.owner();
        long token = store.acquire(Acquisition.of(key, owner, 60_000)).fencingToken();
        try (RowLocks.Holder fencedWrite = RowLocks.holder(JpaDatabase.POSTGRESQL)) {
            // What a fenced write of the holder keeps on the key's row until its transaction ends.
            assertThat(fencedWrite.lock("SELECT lock_key FROM " + table + " WHERE lock_key = ? FOR KEY SHARE", key))
                    .isEqualTo(1);

            CompletableFuture<HandOverResult> handOver = CompletableFuture.supplyAsync(
                    () -> store.handOver(owner, Acquisition.of(key, JpaTestOwners.owner(), 60_000)), calls);
            assertThat(RowLocks.awaitWaiting(
                            JpaDatabase.POSTGRESQL,
                            "held as (select",
                            Duration.ofSeconds(10),
                            () -> !handOver.isDone()))
                    .as("the hand-over waits for the fenced write's row lock: %s", handOver)
                    .isTrue();
            assertThat(store.renew(new Renewal(key, owner, 60_000, 5_000)))
                    .as("meanwhile the holder still holds the key (a renewal does not wait for the fence)")
                    .isTrue();
            fencedWrite.release();

            HandOverResult result = handOver.get(30, TimeUnit.SECONDS);
            assertThat(result.released()).isTrue();
            assertThat(result.next().isAcquired())
                    .as("handed over once the write ended")
                    .isTrue();
            assertThat(result.next().fencingToken()).isGreaterThan(token);
        }
    }

    @Test
    void threadsOfOneEngineHandTheKeyOverInTheReleasesStatement() throws Exception {
        Counted store = new Counted(store(backend.tableName("hthreads")));
        LockEngine engine = new LockEngine(
                new ManagerSettings("", Optional.empty(), 30_000, 30_000, "", 0, false),
                store,
                scheduler,
                calls,
                LockListener.NONE);
        toClose.add(engine);
        String key = "hthreads:" + UUID.randomUUID();
        engine.acquire(key, 30_000, 0, false).close(); // connects: the store declares HAND_OVER from here on
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        int threads = 4;
        int rounds = 50;
        Together.run(threads, t -> {
            for (int i = 0; i < rounds; i++) {
                try (HeldLock lock = engine.acquire(key, 30_000, 30_000, true)) {
                    if (inside.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    tokens.add(lock.fencingToken());
                    Thread.sleep(1);
                    inside.decrementAndGet();
                }
            }
        });
        assertThat(overlaps).hasValue(0);
        assertThat(tokens).hasSize(threads * rounds).doesNotHaveDuplicates();
        assertThat(tokens).isSorted(); // each holder's token is above its predecessor's
        assertThat(store.handedOver.get())
                .as("hand-overs among %d acquisitions (%d acquire calls)", tokens.size(), store.acquires.get())
                .isGreaterThan(threads * rounds / 2);
        assertThat(store.inspect(key)).as("nothing left held").isEmpty();
    }

    /** Counts the store's acquisitions and the keys it handed over. */
    private static final class Counted extends ForwardingLockStore {
        final AtomicInteger acquires = new AtomicInteger();
        final AtomicInteger handedOver = new AtomicInteger();

        Counted(LockStore store) {
            super(store);
        }

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            acquires.incrementAndGet();
            return super.acquire(acquisition);
        }

        @Override
        public HandOverResult handOver(String owner, Acquisition next) {
            HandOverResult result = super.handOver(owner, next);
            if (result.next().isAcquired()) {
                handedOver.incrementAndGet();
            }
            return result;
        }
    }
}
