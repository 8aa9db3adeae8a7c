package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.LockLostException;
import dev.baton.LockStoreException;
import dev.baton.impl.testing.Engines;
import dev.baton.impl.testing.FaultyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RenewalTest {

    private final ScheduledExecutorService scheduler = Engines.scheduler();
    private final FaultyStore store = new FaultyStore();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final LockListener listener = new LockListener() {
        @Override
        public void acquired(HeldLock lock) {
            events.add("acquired " + lock.key());
        }

        @Override
        public void released(HeldLock lock) {
            events.add("released " + lock.key());
        }

        @Override
        public void lost(HeldLock lock, LockLostException reason) {
            events.add("lost " + lock.key());
        }
    };

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void renewalKeepsAShortLeaseAliveForTenTtls() throws Exception {
        // 450 ms: short, yet a lease a loaded 2-core machine's scheduler stalls (up to ~400 ms seen) do not end.
        LockEngine engine = Engines.engine(store, scheduler, 450, 1_000, false, listener);
        HeldLock lock = engine.acquire("renewed", 450, 1_000, true);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4_500);
        while (System.nanoTime() < end) {
            assertThat(lock.isHeld()).as("held; lost: %s", lock.lossReason()).isTrue();
            // Nobody else can take it meanwhile: the store itself still has it.
            assertThat(store.acquire("renewed", "intruder-owner", 450).isAcquired())
                    .isFalse();
            Thread.sleep(25);
        }
        assertThat(store.renewCalls.get()).isGreaterThanOrEqualTo(10);
        assertThat(lock.release()).isTrue();
        assertThat(events).containsExactly("acquired renewed", "released renewed");
    }

    @Test
    void aStoreThatGoesDownMakesTheLockLostOnlyWhenItsLeaseIsOver() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, 1_500, 1_000, false, listener);
        HeldLock lock = engine.acquire("fragile", 1_500, 1_000, true);
        await().until(() -> store.renewCalls.get() >= 1);
        long leaseEnd = lock.leaseEndNanos();
        store.down = true;
        await().atMost(Duration.ofSeconds(10)).until(() -> !lock.isHeld());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> lock.whenLost().toCompletableFuture().isDone());
        long lostAt = System.nanoTime();
        assertThat(lostAt - leaseEnd)
                .as("lost only after the lease could have expired")
                .isGreaterThanOrEqualTo(0);
        LockLostException reason = lock.whenLost().toCompletableFuture().get();
        assertThat(reason).hasMessageContaining("'fragile'").hasCauseInstanceOf(LockStoreException.class);
        assertThatThrownBy(lock::checkHeld).isSameAs(reason);
        assertThat(events).contains("lost fragile");
        // Releasing a lost lock: the store is down, so release reports it; the local state is clean anyway.
        assertThatThrownBy(lock::release).isInstanceOf(LockStoreException.class);
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aRenewalRefusedByTheStoreLosesTheLockAtOnce() throws Exception {
        LockEngine engine = Engines.engine(store, scheduler, 30_000, 1_000, false, listener);
        // Renewal every 100 ms while the lease is 30 s: the loss must come from the store's answer, not the lease.
        HeldLock lock = new LockEngine(
                        new dev.baton.impl.config.ManagerSettings(
                                "", java.util.Optional.empty(), 30_000, 1_000, "", 100, false),
                        store,
                        scheduler,
                        Engines.STORE_CALLS,
                        listener)
                .acquire("disowned", 30_000, 1_000, true);
        store.renewAnswersFalse = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> !lock.isHeld());
        assertThat(lock.validUntil()).isAfter(java.time.Instant.now().plusSeconds(20));
        assertThat(lock.whenLost().toCompletableFuture().get().getMessage()).contains("no longer holds it");
        engine.close();
    }

    @Test
    void interruptOnLossInterruptsTheWorker() throws Exception {
        LockEngine engine = new LockEngine(
                new dev.baton.impl.config.ManagerSettings("", java.util.Optional.empty(), 30_000, 1_000, "", 50, true),
                store,
                scheduler,
                Engines.STORE_CALLS,
                listener);
        HeldLock lock = engine.acquire("interrupted", 30_000, 1_000, true);
        store.renewAnswersFalse = true;
        assertThatThrownBy(() -> Thread.sleep(20_000)).isInstanceOf(InterruptedException.class);
        assertThat(lock.isHeld()).isFalse();
        lock.close();
    }

    @Test
    void closingTheEngineReleasesTheLocksItsHoldersGiveBackAndLeavesTheOthersToExpire() {
        LockEngine engine = Engines.engine(store, scheduler, 30_000, 1_000, false, listener);
        HeldLock givenBack = engine.acquire("a", 30_000, 1_000, true);
        givenBack.whenLost().thenRun(givenBack::close); // the documented way to give a lock back at shutdown
        HeldLock leftOpen = engine.acquire("b", 30_000, 1_000, true);
        engine.close(java.time.Duration.ofSeconds(5));
        assertThat(engine.heldCount()).isZero();
        assertThat(givenBack.whenLost().toCompletableFuture()).isDone();
        assertThat(leftOpen.whenLost().toCompletableFuture()).isDone();
        assertThat(store.acquire("a", "someone-else", 1_000).isAcquired())
                .as("released by its holder")
                .isTrue();
        assertThat(store.acquire("b", "someone-else", 1_000).isAcquired())
                .as("its work may still run: left to expire, not released")
                .isFalse();
    }
}
