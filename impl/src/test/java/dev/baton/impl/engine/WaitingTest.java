package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockAlreadyHeldException;
import dev.baton.LockInterruptedException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.Engines;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WaitingTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final MemoryLockStore store = new MemoryLockStore();
    private final LockEngine engine = Engines.engine(store, scheduler, 30_000, 10_000);

    @AfterEach
    void stop() {
        engine.close();
        scheduler.shutdownNow();
    }

    @Test
    void notWaitingFailsAtOnceWhileAnotherHolds() throws Exception {
        try (HeldLock held = holdElsewhere("busy")) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> engine.acquire("busy", 30_000, 10_000, false))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("'busy'")
                    .hasMessageContaining("not waiting")
                    .satisfies(e ->
                            assertThat(((LockTimeoutException) e).getTimeout()).isZero());
            // "At once": far less than the 10 s timeout it would otherwise wait.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void timeoutIsHonoured() throws Exception {
        try (HeldLock held = holdElsewhere("slow")) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> engine.acquire("slow", 30_000, 300, true))
                    .isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("300 ms")
                    .satisfies(e -> {
                        LockTimeoutException timeout = (LockTimeoutException) e;
                        assertThat(timeout.getTimeout())
                                .as("the caller's timeout")
                                .isEqualTo(Duration.ofMillis(300));
                        assertThat(timeout.getWaited())
                                .as("how long it waited")
                                .isGreaterThanOrEqualTo(Duration.ofMillis(300))
                                .isLessThanOrEqualTo(Duration.ofNanos(System.nanoTime() - start));
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
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
            await().until(() ->
                    waiter.getState() == Thread.State.TIMED_WAITING || waiter.getState() == Thread.State.WAITING);
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
            long start = System.nanoTime();
            assertThatThrownBy(() -> engine.acquire("mine", 30_000, 10_000, true))
                    .isInstanceOf(LockAlreadyHeldException.class)
                    .hasMessageContaining("not reentrant");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            assertThat(outer.isHeld()).isTrue();
        }
    }

    @Test
    void aLocalReleaseHandsTheKeyToTheNextLocalWaiter() throws Exception {
        HeldLock first = engine.acquire("handoff", 30_000, 1_000, true);
        CompletableFuture<HeldLock> second =
                CompletableFuture.supplyAsync(() -> engine.acquire("handoff", 30_000, 10_000, true));
        await().during(Duration.ofMillis(100)).until(() -> !second.isDone());
        first.release();
        HeldLock next = second.get(5, TimeUnit.SECONDS);
        assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
        next.release();
    }

    @Test
    void aRemoteHolderIsWaitedForUntilItsLeaseEnds() throws Exception {
        // Another instance takes the key with a short lease and dies (never releases): we get it after the lease.
        assertThat(store.acquire("crashed", "another-instance-owner", 400).isAcquired())
                .isTrue();
        long start = System.nanoTime();
        try (HeldLock lock = engine.acquire("crashed", 30_000, 10_000, true)) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(lock.isHeld()).isTrue();
        }
    }

    @Test
    void aFailedWaitLeavesNothingBehind() throws Exception {
        try (HeldLock held = holdElsewhere("clean")) {
            for (int i = 0; i < 5; i++) {
                assertThatThrownBy(() -> engine.acquire("clean", 30_000, 20, true))
                        .isInstanceOf(LockTimeoutException.class);
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
