package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A renewal call that never comes back (a store connection stuck in the network, a database that
 * does not answer) must neither keep its lock "held" past the lease, nor hold up the renewal of the
 * other locks: the scheduler (2 threads, as Baton's private one) only keeps time.
 */
class HungStoreCallTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final CountDownLatch unblock = new CountDownLatch(1);
    private final HangingStore store = new HangingStore();
    private final LostKeys listener = new LostKeys();
    private final List<String> lost = listener.keys();

    @AfterEach
    void stop() {
        unblock.countDown();
        scheduler.shutdownNow();
    }

    @Test
    void aLockWhoseRenewalHangsIsReportedLostAtItsLeaseEnd() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, 300, 1_000, false, listener);
        store.hangingKeys.add("stuck");
        long beforeAcquire = System.nanoTime(); // the lease starts when the acquire call is sent, not before
        HeldLock lock = engine.acquire("stuck", 300, 1_000, true);

        LockLostException reason = lock.whenLost().toCompletableFuture().get(5, TimeUnit.SECONDS);

        long lostAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - beforeAcquire);
        assertThat(lostAfterMillis)
                .as("reported at the lease's end, not before")
                .isGreaterThanOrEqualTo(300);
        assertThat(store.hungCalls.getCount())
                .as("the renewal call is still hanging")
                .isZero();
        assertThat(reason).hasMessageContaining("stuck").hasMessageContaining("store is slow or unreachable");
        assertThat(lock.isHeld()).isFalse();
        // the event follows the completion of whenLost(), on the same thread
        await().atMost(Duration.ofSeconds(2)).until(() -> !lost.isEmpty());
        assertThat(lost).containsExactly("stuck");
    }

    @Test
    void hangingRenewalsDoNotStopTheOthers() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, 300, 1_000, false, listener);
        List<HeldLock> stuck = new ArrayList<>();
        for (int i = 0; i < 5; i++) { // more hanging calls than the scheduler has threads
            store.hangingKeys.add("stuck-" + i);
            stuck.add(engine.acquire("stuck-" + i, 300, 1_000, true));
        }
        HeldLock healthy = engine.acquire("healthy", 300, 1_000, true);

        // ten leases long: the healthy lock is renewed throughout, the others are lost at their lease end
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3_000);
        while (System.nanoTime() < end) {
            assertThat(healthy.isHeld()).isTrue();
            assertThat(store.acquire("healthy", "intruder", 300).isAcquired())
                    .as("nobody else can take it")
                    .isFalse();
            Thread.sleep(25);
        }
        assertThat(stuck).allSatisfy(lock -> assertThat(lock.isHeld()).isFalse());
        await().atMost(Duration.ofSeconds(2)).until(() -> lost.size() == 5);
        assertThat(lost).doesNotContain("healthy");
        assertThat(healthy.release()).isTrue();
    }

    /** The memory store, whose renewals of some keys block until the test ends. */
    private final class HangingStore implements LockStore {

        final MemoryLockStore memory = new MemoryLockStore();
        final Set<String> hangingKeys = ConcurrentHashMap.newKeySet();
        final CountDownLatch hungCalls = new CountDownLatch(1);

        @Override
        public AcquireResult acquire(String key, String owner, long ttlMillis) {
            return memory.acquire(key, owner, ttlMillis);
        }

        @Override
        public boolean renew(String key, String owner, long ttlMillis) {
            if (hangingKeys.contains(key)) {
                hungCalls.countDown();
                try {
                    unblock.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return memory.renew(key, owner, ttlMillis);
        }

        @Override
        public boolean release(String key, String owner) {
            return memory.release(key, owner);
        }
    }
}
