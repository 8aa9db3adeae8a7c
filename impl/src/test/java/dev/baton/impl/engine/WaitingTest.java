package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockInterruptedException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting on virtual time: the waiters run on threads of their own, the test moves time. */
class WaitingTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    private final MemoryLockStore store = new MemoryLockStore(time::nanoTime);
    private final LockEngine engine = engines.engine(store, 30_000, 10_000);

    @Test
    void notWaitingFailsAtOnceWhileAnotherHolds() throws Exception {
        try (HeldLock held = holdElsewhere("busy")) {
            // "At once": time stands still, so a wait would never end.
            assertThatThrownBy(() -> engine.acquire("busy", 30_000, 10_000, false))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("'busy'")
                    .hasMessageContaining("not waiting")
                    .satisfies(e -> {
                        assertThat(((LockTimeoutException) e).getTimeout()).isZero();
                        assertThat(((LockTimeoutException) e).getWaited()).isZero();
                    });
        }
    }

    @Test
    void timeoutIsHonoured() throws Exception {
        try (HeldLock held = holdElsewhere("slow")) {
            CompletableFuture<HeldLock> waiter =
                    CompletableFuture.supplyAsync(() -> engine.acquire("slow", 30_000, 300, true));
            time.awaitWaiting(1);
            time.advanceMillis(299);
            assertThat(waiter).as("still waiting at 299 ms").isNotDone();
            time.advanceMillis(1);
            assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("300 ms")
                    .satisfies(e -> {
                        LockTimeoutException timeout = (LockTimeoutException) e;
                        assertThat(timeout.getTimeout())
                                .as("the caller's timeout")
                                .isEqualTo(Duration.ofMillis(300));
                        assertThat(timeout.getWaited()).as("how long it waited").isEqualTo(Duration.ofMillis(300));
                    });
        }
    }

    @Test
    void aWaiterIsInterrupted() throws Exception {
        try (HeldLock held = holdElsewhere("interrupt")) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicReference<Boolean> flag = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    engine.acquire("interrupt", 30_000, 60_000, true);
                } catch (Throwable t) {
                    failure.set(t);
                    flag.set(Thread.currentThread().isInterrupted());
                }
            });
            waiter.start();
            time.awaitWaiting(1);
            waiter.interrupt();
            waiter.join(10_000);
            assertThat(failure.get())
                    .isInstanceOf(LockInterruptedException.class)
                    .hasMessageContaining("'interrupt'");
            assertThat(flag.get()).as("interrupt flag restored").isTrue();
        }
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aThreadWaitingForAKeyItHoldsFailsFast() {
        try (HeldLock outer = engine.acquire("mine", 30_000, 1_000, true)) {
            // Time stands still: a wait would never end.
            assertThatThrownBy(() -> engine.acquire("mine", 30_000, 10_000, true))
                    .isInstanceOf(LockAlreadyHeldException.class)
                    .hasMessageContaining("not reentrant");
            assertThat(outer.isHeld()).isTrue();
        }
    }

    @Test
    void aLocalReleaseHandsTheKeyToTheNextLocalWaiter() throws Exception {
        HeldLock first = engine.acquire("handoff", 30_000, 1_000, true);
        CompletableFuture<HeldLock> second =
                CompletableFuture.supplyAsync(() -> engine.acquire("handoff", 30_000, 10_000, true));
        time.awaitWaiting(1);
        time.advanceMillis(9_999);
        assertThat(second).as("waits for the local release").isNotDone();
        first.release();
        HeldLock next = second.get(5, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
        next.release();
    }

    @Test
    void aRemoteHolderIsWaitedForUntilItsLeaseEnds() throws Exception {
        // Another instance takes the key with a short lease and dies (never releases): we get it after the lease.
        assertThat(store.acquire(Acquisition.of("crashed", "another-instance-owner", 400))
                        .isAcquired())
                .isTrue();
        long start = time.nanoTime();
        CompletableFuture<HeldLock> waiter =
                CompletableFuture.supplyAsync(() -> engine.acquire("crashed", 30_000, 10_000, true));
        // Each poll pause (5 ms doubling, with jitter) ends at a timer: run them one by one, each once its
        // waiter is parked again; the last pause ends just after the lease, as the store reported it.
        VirtualTime.awaitReal(() -> time.waits() >= 1, "the first poll pause");
        while (!waiter.isDone()) {
            int waits = time.waits();
            assertThat(time.advanceToNext()).as("a poll pause is planned").isTrue();
            VirtualTime.awaitReal(() -> waiter.isDone() || time.waits() > waits, "the next poll");
        }
        try (HeldLock lock = waiter.get()) {
            assertThat(Duration.ofNanos(lock.acquiredAtNanos() - start))
                    .as("asked again just after the lease's end")
                    .isBetween(Duration.ofMillis(400), Duration.ofMillis(401));
            assertThat(lock.isHeld()).isTrue();
        }
    }

    @Test
    void aFailedWaitLeavesNothingBehind() throws Exception {
        try (HeldLock held = holdElsewhere("clean")) {
            for (int i = 0; i < 5; i++) {
                CompletableFuture<HeldLock> waiter =
                        CompletableFuture.supplyAsync(() -> engine.acquire("clean", 30_000, 20, true));
                time.awaitWaiting(1);
                time.advanceMillis(20);
                assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
                        .cause()
                        .isInstanceOf(LockTimeoutException.class);
                VirtualTime.awaitReal(() -> engine.gateUsers("clean") == 1, "only the holder left in the queue");
            }
        }
        try (HeldLock lock = engine.acquire("clean", 30_000, 1_000, false)) {
            assertThat(lock.isHeld()).isTrue();
        }
    }

    /** Holds the key from another thread, as another request would. */
    private HeldLock holdElsewhere(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> engine.acquire(key, 30_000, 1_000, true))
                .get(5, TimeUnit.SECONDS);
    }
}
