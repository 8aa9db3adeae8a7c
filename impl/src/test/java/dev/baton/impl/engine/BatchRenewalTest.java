package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockStoreException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.Lease;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import dev.baton.spi.StoreCapability;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With a store that declares {@code BATCH_RENEW}, the locks of one engine are renewed in few round trips
 * ({@code renewAll}) rather than one call per lock — and a batch keeps every per-lock guarantee: a lease
 * the store did not renew is lost at once, a failing batch is retried until each lease is over.
 */
class BatchRenewalTest {

    private static final int LOCKS = 30;
    private static final long TTL = 300;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    private final BatchStore store = new BatchStore(time);
    private final LostKeys listener = new LostKeys();
    private final List<String> lost = listener.keys();

    @Test
    void locksTakenAtDifferentTimesAreRenewedTogether() {
        LockEngine engine = engines.engine(store).ttl(TTL).listener(listener).build();
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < LOCKS; i++) { // one every 3 ms, over most of a renewal interval (100 ms)
            locks.add(engine.acquire("batch-" + i, TTL, 1_000, true));
            time.advanceMillis(3);
        }
        // At 100 ms the first lock's renewal takes along those due within half an interval (by 150 ms): the
        // 17 taken by 48 ms. At 151 ms the 18th's takes along the other 12 and the first 17 (due at 200 ms):
        // from then on all 30 fall due together, one round trip per interval.
        time.advanceMillis(100 - time.millis());
        assertThat(store.batches).containsExactly("100 ms: 17");
        time.advanceMillis(10 * TTL - time.millis());
        List<String> expected = new ArrayList<>(List.of("100 ms: 17"));
        for (long at = 151; at <= 10 * TTL; at += 100) {
            expected.add(at + " ms: " + LOCKS);
        }
        assertThat(store.batches).containsExactlyElementsOf(expected);
        assertThat(store.singleRenewals.get())
                .as("renew() calls: every renewal went through renewAll")
                .isZero();
        assertThat(locks)
                .allSatisfy(lock -> assertThat(lock.isHeld()).as(lock.key()).isTrue());
        for (int i = 0; i < LOCKS; i++) {
            assertThat(store.acquire(Acquisition.of("batch-" + i, "intruder", TTL))
                            .isAcquired())
                    .as("nobody else can take batch-%d", i)
                    .isFalse();
        }
        assertThat(lost).isEmpty();
        locks.forEach(HeldLock::release);
    }

    @Test
    void aLeaseTheBatchDidNotRenewIsLostAndTheOthersAreKept() {
        LockEngine engine = engines.engine(store).ttl(TTL).listener(listener).build();
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            locks.add(engine.acquire("kept-" + i, TTL, 1_000, true));
        }
        store.disowned.add("kept-2");

        time.advanceMillis(99);
        assertThat(lost).isEmpty();
        time.advanceMillis(1); // the first batch: the store renews all but kept-2
        assertThat(store.batches).containsExactly("100 ms: 5");
        assertThat(lost).containsExactly("kept-2");
        time.advanceMillis(3 * TTL);
        assertThat(store.batches)
                .containsExactly(
                        "100 ms: 5",
                        "200 ms: 4",
                        "300 ms: 4",
                        "400 ms: 4",
                        "500 ms: 4",
                        "600 ms: 4",
                        "700 ms: 4",
                        "800 ms: 4",
                        "900 ms: 4",
                        "1000 ms: 4");
        assertThat(lost).containsExactly("kept-2");
        for (int i = 0; i < 5; i++) {
            assertThat(locks.get(i).isHeld()).as("kept-" + i).isEqualTo(i != 2);
        }
        locks.forEach(HeldLock::release);
    }

    @Test
    void aFailingBatchIsRetriedUntilEachLeaseIsOver() throws Exception {
        long ttl = 1_000; // renewed every 333 ms, retried every 100 ms
        LockEngine engine = engines.engine(store).ttl(ttl).listener(listener).build();
        List<HeldLock> locks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            locks.add(engine.acquire("flaky-" + i, ttl, 1_000, true));
        }
        // down across the first renewal (333 ms), for well under a lease: retried at 433 ms, nothing lost
        store.down = true;
        time.advanceMillis(400);
        store.down = false;
        time.advanceMillis(33);
        assertThat(store.failedBatches.get())
                .as("renewal batches refused while down")
                .isOne();
        assertThat(store.batches).containsExactly("433 ms: 5");
        time.advanceMillis(300);
        assertThat(lost).isEmpty();
        assertThat(locks).allSatisfy(lock -> assertThat(lock.isHeld()).isTrue());

        // down for good before the renewal at 766 ms: every lock is lost when its lease (renewed at 433 ms) is
        // over, not before
        store.down = true;
        time.advanceMillis(433 + ttl - time.millis());
        assertThat(lost).isEmpty();
        assertThat(locks).allSatisfy(lock -> assertThat(lock.isHeld()).isFalse());
        time.advanceMillis(1);
        assertThat(lost).hasSize(5);
        assertThat(store.batches).containsExactly("433 ms: 5");
        assertThat(store.failedBatches.get())
                .as("at 333, 766 and every 100 ms until 1,366 ms")
                .isEqualTo(8);
        assertThat(locks)
                .allSatisfy(
                        lock -> assertThat(lock.whenLost().toCompletableFuture().get())
                                .hasMessageContaining("renewing failed until its lease was over"));
        locks.forEach(HeldLock::release);
    }

    /** The memory store, declaring batch renewal and counting the calls. */
    private static final class BatchStore implements LockStore {

        final VirtualTime time;
        final MemoryLockStore memory;
        /** Each successful batch, as {@code "<virtual ms>: <size>"}. */
        final List<String> batches = new CopyOnWriteArrayList<>();

        final AtomicInteger singleRenewals = new AtomicInteger();
        final AtomicInteger batchCalls = new AtomicInteger();
        final AtomicInteger failedBatches = new AtomicInteger();
        final Set<String> disowned = ConcurrentHashMap.newKeySet();
        volatile boolean down;

        BatchStore(VirtualTime time) {
            this.time = time;
            this.memory = new MemoryLockStore(time::nanoTime);
        }

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            return memory.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            singleRenewals.incrementAndGet();
            return memory.renew(renewal);
        }

        @Override
        public Set<Lease> renewAll(Collection<Lease> leases, long ttlMillis, long maxWaitMillis) {
            if (down) {
                failedBatches.incrementAndGet();
                throw new LockStoreException("the backend is down");
            }
            batchCalls.incrementAndGet();
            batches.add(time.millis() + " ms: " + leases.size());
            Set<Lease> renewed = new HashSet<>();
            for (Lease lease : leases) {
                if (!disowned.contains(lease.key())
                        && memory.renew(new Renewal(lease.key(), lease.owner(), ttlMillis, maxWaitMillis))) {
                    renewed.add(lease);
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
