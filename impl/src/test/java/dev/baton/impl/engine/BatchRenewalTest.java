package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With a store that declares {@code BATCH_RENEW}, the locks of one engine are renewed in few round trips
 * ({@code renewAll}) rather than one call per lock — and a batch keeps every per-lock guarantee: a lease
 * the store did not renew is lost at once, a failing batch is retried until each lease is over.
 */
class BatchRenewalTest {

    private static final int LOCKS = 30;
    private static final long TTL = 300;

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final BatchStore store = new BatchStore();
    private final LostKeys listener = new LostKeys();
    private final List<String> lost = listener.keys();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void locksTakenAtDifferentTimesAreRenewedTogether() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, TTL, 1_000, false, listener);
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < LOCKS; i++) { // spread over one renewal interval (100 ms)
            locks.add(engine.acquire("batch-" + i, TTL, 1_000, true));
            Thread.sleep(3);
        }

        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * TTL);
        while (System.nanoTime() < end) {
            assertThat(locks)
                    .allSatisfy(lock -> assertThat(lock.isHeld()).as(lock.key()).isTrue());
            assertThat(store.acquire("batch-" + (int) (Math.random() * LOCKS), "intruder", TTL)
                            .isAcquired())
                    .as("nobody else can take them")
                    .isFalse();
            Thread.sleep(20);
        }

        assertThat(store.singleRenewals.get())
                .as("renew() calls: every renewal went through renewAll")
                .isZero();
        int leasesRenewed = store.leasesRenewed.get();
        int batchCalls = store.batchCalls.get();
        // ten ttls = thirty renewal intervals: thirty locks renewed about thirty times each
        assertThat(leasesRenewed).isGreaterThanOrEqualTo(LOCKS * 25);
        assertThat(batchCalls)
                .as("round trips for %d lease renewals", leasesRenewed)
                .isLessThanOrEqualTo(leasesRenewed / 5);
        assertThat(store.largestBatch.get()).isGreaterThan(LOCKS / 3);
        assertThat(lost).isEmpty();
        locks.forEach(HeldLock::release);
    }

    @Test
    void aLeaseTheBatchDidNotRenewIsLostAndTheOthersAreKept() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, TTL, 1_000, false, listener);
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            locks.add(engine.acquire("kept-" + i, TTL, 1_000, true));
        }
        store.disowned.add("kept-2");

        await().atMost(Duration.ofSeconds(2)).until(() -> lost.contains("kept-2"));
        Thread.sleep(3 * TTL);
        assertThat(lost).containsExactly("kept-2");
        for (int i = 0; i < 5; i++) {
            assertThat(locks.get(i).isHeld()).as("kept-" + i).isEqualTo(i != 2);
        }
        locks.forEach(HeldLock::release);
    }

    @Test
    void aFailingBatchIsRetriedUntilEachLeaseIsOver() throws Exception {
        long ttl = 1_000; // renewed every 333 ms, retried every 100 ms: wide margins for a loaded machine
        LockEngine engine = Engines.engine(store, scheduler, ttl, 1_000, false, listener);
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            locks.add(engine.acquire("flaky-" + i, ttl, 1_000, true));
        }
        // down across the first renewal, for well under a lease: retried, nothing lost
        store.down = true;
        Thread.sleep(ttl * 2 / 5);
        store.down = false;
        Thread.sleep(ttl);
        assertThat(store.failedBatches.get())
                .as("renewal batches refused while down")
                .isPositive();
        assertThat(lost).isEmpty();
        assertThat(locks).allSatisfy(lock -> assertThat(lock.isHeld()).isTrue());

        // down for good: every lock is lost when its lease is over, not before
        long downAt = System.nanoTime();
        store.down = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> lost.size() == 5);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - downAt)).isGreaterThanOrEqualTo(ttl / 3);
        assertThat(locks)
                .allSatisfy(
                        lock -> assertThat(lock.whenLost().toCompletableFuture().get())
                                .hasMessageContaining("renewing failed until its lease was over"));
        locks.forEach(HeldLock::release);
    }

    /** The memory store, declaring batch renewal and counting the calls. */
    private static final class BatchStore implements LockStore {

        final MemoryLockStore memory = new MemoryLockStore();
        final AtomicInteger singleRenewals = new AtomicInteger();
        final AtomicInteger batchCalls = new AtomicInteger();
        final AtomicInteger leasesRenewed = new AtomicInteger();
        final AtomicInteger largestBatch = new AtomicInteger();
        final AtomicInteger failedBatches = new AtomicInteger();
        final Set<String> disowned = ConcurrentHashMap.newKeySet();
        volatile boolean down;

        @Override
        public AcquireResult acquire(String key, String owner, long ttlMillis) {
            return memory.acquire(key, owner, ttlMillis);
        }

        @Override
        public boolean renew(String key, String owner, long ttlMillis) {
            singleRenewals.incrementAndGet();
            return memory.renew(key, owner, ttlMillis);
        }

        @Override
        public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis) {
            if (down) {
                failedBatches.incrementAndGet();
                throw new LockStoreException("the backend is down");
            }
            batchCalls.incrementAndGet();
            largestBatch.accumulateAndGet(leases.size(), Math::max);
            Set<Lease> renewed = new HashSet<>();
            for (Lease lease : leases) {
                if (!disowned.contains(lease.key()) && memory.renew(lease.key(), lease.owner(), ttlMillis)) {
                    renewed.add(lease);
                    leasesRenewed.incrementAndGet();
                }
            }
            return renewed;
        }

        @Override
        public boolean release(String key, String owner) {
            return memory.release(key, owner);
        }

        @Override
        public Set<StoreCapability> capabilities() {
            Set<StoreCapability> capabilities = new HashSet<>(memory.capabilities());
            capabilities.add(StoreCapability.BATCH_RENEW);
            return capabilities;
        }
    }
}
