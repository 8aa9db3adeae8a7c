package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link HeldLock#keepUntil}: the engine primitive of exclusive schedules. A kept lock is held in the store
 * until the set time, not released before it and not renewed past it; {@link LockEngine#tryOnce} reports
 * the holder's remaining lease.
 */
class KeepUntilTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    /** A memory store whose first renewal (the periodic one) can be held in flight by a latch. */
    static final class GatedRenewals implements LockStore {
        final MemoryLockStore memory = new MemoryLockStore();
        final CountDownLatch firstRenewalSent = new CountDownLatch(1);
        final CountDownLatch letFirstRenewalThrough = new CountDownLatch(1);
        final AtomicInteger renewals = new AtomicInteger();
        final List<Long> renewTtls = new CopyOnWriteArrayList<>();

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            return memory.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            if (renewals.incrementAndGet() == 1) {
                firstRenewalSent.countDown();
                try {
                    letFirstRenewalThrough.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            renewTtls.add(renewal.ttlMillis());
            return memory.renew(renewal);
        }

        @Override
        public boolean release(String key, String owner) {
            return memory.release(key, owner);
        }
    }

    @Test
    void aKeptLockIsHeldUntilTheSetTimeThenExpiresWithoutBeingReleasedOrRenewed() throws Exception {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store, 120, 1_000);
        HeldLock lock = engine.acquire("kept", 120, 0, false);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(700);

        assertThat(lock.keepUntil(until)).isTrue();
        assertThat(lock.isHeld()).as("its work has ended").isFalse();
        assertThat(lock.release()).as("a kept lock is never released early").isFalse();
        lock.close();
        assertThat(engine.heldCount()).isZero();
        // Held in the store past its ttl (120 ms), by the one renewal to the hold, not by renewals.
        while (until - System.nanoTime() > TimeUnit.MILLISECONDS.toNanos(30)) {
            assertThat(store.acquire(Acquisition.of("kept", "other-instance", 60_000))
                            .isAcquired())
                    .as("during the hold")
                    .isFalse();
            Thread.sleep(20);
        }
        await().atMost(Duration.ofMillis(500))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> store.acquire(Acquisition.of("kept", "other-instance", 60_000))
                        .isAcquired());
        assertThat(System.nanoTime() - until)
                .as("free only when the hold has passed")
                .isGreaterThanOrEqualTo(0);
    }

    @Test
    void aRenewalInFlightDoesNotLengthenTheHold() throws Exception {
        GatedRenewals store = new GatedRenewals();
        LockEngine engine = engines.engine(store, 3_000, 1_000);
        HeldLock lock = engine.acquire("kept", 3_000, 0, false);
        assertThat(store.firstRenewalSent.await(5, TimeUnit.SECONDS))
                .as("the periodic renewal is in flight")
                .isTrue();

        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
        Thread keeper = new Thread(() -> lock.keepUntil(until));
        keeper.start();
        Thread.sleep(100);
        // The periodic renewal lands now, setting a 3 s lease; the hold's own renewal must come after it.
        store.letFirstRenewalThrough.countDown();
        keeper.join(5_000);

        assertThat(store.renewTtls)
                .as("the periodic renewal, then the hold")
                .hasSize(2)
                .startsWith(3_000L);
        assertThat(store.renewTtls.get(1)).isLessThanOrEqualTo(400);
        await().atMost(Duration.ofMillis(600))
                .pollInterval(Duration.ofMillis(5))
                .until(() -> store.acquire(Acquisition.of("kept", "other-instance", 60_000))
                        .isAcquired());
        assertThat(System.nanoTime() - until).isGreaterThanOrEqualTo(0);
    }

    @Test
    void aHoldThatHasPassedReleasesAtOnce() {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store, 10_000, 1_000);
        HeldLock lock = engine.acquire("late", 10_000, 0, false);
        assertThat(lock.keepUntil(System.nanoTime() - 1)).isFalse();
        assertThat(store.acquire(Acquisition.of("late", "other-instance", 60_000))
                        .isAcquired())
                .isTrue();
    }

    @Test
    void tryOnceReportsTheHoldersRemainingLease() {
        MemoryLockStore store = new MemoryLockStore();
        LockEngine engine = engines.engine(store, 10_000, 1_000);
        assertThat(store.acquire(Acquisition.of("taken", "other-instance", 5_000))
                        .isAcquired())
                .isTrue();
        Attempt remote = engine.tryOnce("taken", 10_000);
        assertThat(remote.acquired()).isFalse();
        assertThat(remote.remainingLeaseMillis().orElseThrow()).isBetween(1L, 5_000L);

        Attempt mine = engine.tryOnce("mine", 10_000);
        assertThat(mine.acquired()).isTrue();
        Attempt again = engine.tryOnce("mine", 10_000);
        assertThat(again.acquired())
                .as("held by this JVM: not acquired, no exception")
                .isFalse();
        assertThat(again.remainingLeaseMillis()).isPresent();
        mine.lock().close();
        assertThat(engine.tryOnce("mine", 10_000).acquired()).isTrue();
    }
}
