package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockLostException;
import dev.baton.LockStoreException;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.FaultyStore;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.Acquisition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Renewals on virtual time: every renewal and every loss at its exact moment. */
class RenewalTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    private final FaultyStore store = new FaultyStore(time::nanoTime);
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

    @Test
    void aLockIsRenewedEveryThirdOfItsTtlForTenTtls() {
        LockEngine engine = engines.engine(store).ttl(300).listener(listener).build();
        HeldLock lock = engine.acquire("renewed", 300, 1_000, true);
        for (int interval = 1; interval <= 30; interval++) {
            time.advanceMillis(99);
            assertThat(store.renewCalls.get())
                    .as("renewals before %d ms", time.millis())
                    .isEqualTo(interval - 1);
            time.advanceMillis(1);
            assertThat(store.renewCalls.get())
                    .as("renewals at %d ms", time.millis())
                    .isEqualTo(interval);
            assertThat(lock.isHeld()).as("held; lost: %s", lock.lossReason()).isTrue();
            // Nobody else can take it meanwhile: the store itself still has it.
            assertThat(store.acquire(Acquisition.of("renewed", "intruder-owner", 300))
                            .isAcquired())
                    .isFalse();
        }
        // Each renewal may take what is left of the lease it renews: two thirds of it.
        assertThat(store.renewBounds).hasSize(30).containsOnly(200L);
        assertThat(lock.release()).isTrue();
        time.advanceMillis(1_000);
        assertThat(store.renewCalls.get()).as("no renewal after the release").isEqualTo(30);
        assertThat(events).containsExactly("acquired renewed", "released renewed");
    }

    @Test
    void aStoreThatGoesDownMakesTheLockLostOnlyWhenItsLeaseIsOver() throws Exception {
        LockEngine engine = engines.engine(store).ttl(1_500).listener(listener).build();
        HeldLock lock = engine.acquire("fragile", 1_500, 1_000, true);
        time.advanceMillis(500); // the first renewal: the lease now ends at 2,000 ms
        assertThat(store.renewCalls.get()).isOne();
        store.down = true;

        time.advanceMillis(1_499); // renewal at 1,000 ms fails; retried every ttl/10 = 150 ms
        assertThat(store.renewCalls.get()).as("the renewal and its retries").isEqualTo(1 + 1 + 6);
        assertThat(lock.isHeld()).as("held until its lease ends").isTrue();
        time.advanceMillis(1);
        assertThat(lock.isHeld()).as("the lease ended at 2,000 ms").isFalse();
        assertThat(lock.whenLost().toCompletableFuture()).isNotDone();
        time.advanceMillis(1); // the watchdog (and the last retry) look 1 ms after the lease's end
        assertThat(lock.whenLost().toCompletableFuture()).isDone();

        LockLostException reason = lock.whenLost().toCompletableFuture().get();
        assertThat(reason)
                .hasMessageContaining("'fragile'")
                .hasMessageContaining("renewing failed until its lease was over")
                .hasCauseInstanceOf(LockStoreException.class);
        assertThatThrownBy(lock::checkHeld).isSameAs(reason);
        assertThat(events).containsExactly("acquired fragile", "lost fragile");
        // Releasing a lost lock: the store is down, so release reports it; the local state is clean anyway.
        assertThatThrownBy(lock::release).isInstanceOf(LockStoreException.class);
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aRenewalRefusedByTheStoreLosesTheLockAtOnce() throws Exception {
        // Renewal every 100 ms while the lease is 30 s: the loss must come from the store's answer, not the lease.
        LockEngine engine = engines.engine(store)
                .ttl(30_000)
                .renewEvery(100)
                .listener(listener)
                .build();
        HeldLock lock = engine.acquire("disowned", 30_000, 1_000, true);
        store.renewAnswersFalse = true;
        time.advanceMillis(99);
        assertThat(lock.isHeld()).isTrue();
        time.advanceMillis(1);
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.validUntil()).isAfter(Instant.now().plusSeconds(29));
        assertThat(lock.whenLost().toCompletableFuture().get().getMessage()).contains("no longer holds it");
    }

    @Test
    void interruptOnLossInterruptsTheWorker() {
        LockEngine engine = engines.engine(store)
                .ttl(30_000)
                .renewEvery(50)
                .interruptOnLoss()
                .listener(listener)
                .build();
        HeldLock lock = engine.acquire("interrupted", 30_000, 1_000, true); // bound to this thread
        store.renewAnswersFalse = true;
        time.advanceMillis(49);
        assertThat(Thread.interrupted()).as("interrupted before the loss").isFalse();
        time.advanceMillis(1);
        assertThat(Thread.interrupted()).as("interrupted at the loss").isTrue();
        assertThat(lock.isHeld()).isFalse();
        lock.close();
    }

    @Test
    void closingTheEngineReleasesTheLocksItsHoldersGiveBackAndLeavesTheOthersToExpire() {
        LockEngine engine = engines.engine(store).listener(listener).build();
        HeldLock givenBack = engine.acquire("a", 30_000, 1_000, true);
        givenBack.whenLost().thenRun(givenBack::close); // the documented way to give a lock back at shutdown
        HeldLock leftOpen = engine.acquire("b", 30_000, 1_000, true);
        // Told (and given back) while closing, on the calling thread here: the short grace only ends the wait for "b".
        engine.close(Duration.ofMillis(50));
        assertThat(engine.heldCount()).isZero();
        assertThat(givenBack.whenLost().toCompletableFuture()).isDone();
        assertThat(leftOpen.whenLost().toCompletableFuture()).isDone();
        assertThat(store.acquire(Acquisition.of("a", "someone-else", 1_000)).isAcquired())
                .as("released by its holder")
                .isTrue();
        assertThat(store.acquire(Acquisition.of("b", "someone-else", 1_000)).isAcquired())
                .as("its work may still run: left to expire, not released")
                .isFalse();
        time.advanceMillis(30_000);
        assertThat(store.acquire(Acquisition.of("b", "someone-else", 1_000)).isAcquired())
                .as("expired with its lease, not renewed after the shutdown")
                .isTrue();
    }
}
