package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.StoreCallThreads;
import dev.baton.impl.testing.VirtualTime;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.LockStore;
import dev.baton.spi.Renewal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A renewal call that never comes back (a store connection stuck in the network, a database that
 * does not answer) must neither keep its lock "held" past the lease, nor hold up the renewal of the
 * other locks: the timers only keep time. On virtual time, with store calls on real threads (some hang).
 */
class HungStoreCallTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.virtualTime();

    private final VirtualTime time = engines.time();
    /** Real threads for the store calls: some of them hang. */
    private final StoreCallThreads calls = new StoreCallThreads();

    private final CountDownLatch unblock = new CountDownLatch(1);
    private final HangingStore store = new HangingStore();
    private final LostKeys listener = new LostKeys();
    private final List<String> lost = listener.keys();

    @AfterEach
    void stop() {
        unblock.countDown();
    }

    @Test
    void aLockWhoseRenewalHangsIsReportedLostAtItsLeaseEnd() throws Exception {
        LockEngine engine = engines.storeCalls(calls)
                .engine(store)
                .ttl(300)
                .listener(listener)
                .build();
        store.hangingKeys.add("stuck");
        HeldLock lock = engine.acquire("stuck", 300, 1_000, true);

        time.advanceMillis(100); // the renewal is sent, and hangs
        calls.awaitRunning(1);
        VirtualTime.awaitReal(() -> store.hungCalls.getCount() == 0, "the renewal call reached the store");
        time.advanceMillis(199);
        assertThat(lock.isHeld()).as("held until the lease's end at 300 ms").isTrue();
        time.advanceMillis(1);
        assertThat(lock.isHeld()).isFalse();
        assertThat(lock.whenLost().toCompletableFuture()).isNotDone();
        time.advanceMillis(1); // the lease watchdog, 1 ms after the lease's end

        LockLostException reason = lock.whenLost().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertThat(reason)
                .hasMessageContaining("stuck")
                .hasMessageContaining("sent 201 ms earlier: the store is slow or unreachable");
        // the event follows the completion of whenLost(), on the same thread
        VirtualTime.awaitReal(() -> !lost.isEmpty(), "the lost event");
        assertThat(lost).containsExactly("stuck");
        calls.awaitRunning(1); // the renewal call is still hanging
    }

    @Test
    void hangingRenewalsDoNotStopTheOthers() {
        LockEngine engine = engines.storeCalls(calls)
                .engine(store)
                .ttl(300)
                .renewThreads(6) // more than the calls that hang
                .listener(listener)
                .build();
        List<HeldLock> stuck = new ArrayList<>();
        for (int i = 0; i < 5; i++) { // more hanging calls than Baton's scheduler has threads
            store.hangingKeys.add("stuck-" + i);
            stuck.add(engine.acquire("stuck-" + i, 300, 1_000, true));
        }
        HeldLock healthy = engine.acquire("healthy", 300, 1_000, true);

        // ten leases long: the healthy lock is renewed every 100 ms throughout, the others are lost at their lease end
        for (int interval = 1; interval <= 30; interval++) {
            time.advanceMillis(100);
            calls.awaitRunning(5); // only the hanging renewals are left
            assertThat(store.healthyRenewals.get())
                    .as("renewals of the healthy lock")
                    .isEqualTo(interval);
            assertThat(healthy.isHeld()).isTrue();
            assertThat(store.acquire(Acquisition.of("healthy", "intruder", 300)).isAcquired())
                    .as("nobody else can take it")
                    .isFalse();
            if (interval == 3) {
                assertThat(stuck).allSatisfy(lock -> assertThat(lock.isHeld()).isFalse());
                assertThat(lost).as("reported at 301 ms, not yet").isEmpty();
            }
            if (interval == 4) {
                assertThat(lost).containsExactlyInAnyOrder("stuck-0", "stuck-1", "stuck-2", "stuck-3", "stuck-4");
            }
        }
        assertThat(lost).doesNotContain("healthy");
        assertThat(healthy.release()).isTrue();
    }

    @Test
    void hangingRenewalsOccupyNoMoreThreadsThanTheManagerAllows() {
        LockEngine engine = engines.storeCalls(calls)
                .engine(store)
                .ttl(300)
                .renewThreads(2)
                .listener(listener)
                .build();
        for (int i = 0; i < 5; i++) {
            store.hangingKeys.add("stuck-" + i);
            engine.acquire("stuck-" + i, 300, 1_000, true);
        }
        HeldLock waiting = engine.acquire("waits-its-turn", 300, 1_000, true);

        time.advanceMillis(100); // six renewals due; two are sent, and hang
        calls.awaitRunning(2);
        // before time moves on, the two calls must have reached the store (a thread that starts late would
        // find the lease over and not send at all)
        VirtualTime.awaitReal(() -> store.hanging.get() == 2, "both renewal calls reached the store and hang");
        assertThat(engine.renewals().callsWaiting())
                .as("renewals waiting for one of the two threads")
                .isEqualTo(4);
        time.advanceMillis(100);
        calls.awaitRunning(2);
        assertThat(store.healthyRenewals.get())
                .as("the healthy lock's renewal is queued behind the hung ones")
                .isZero();
        time.advanceMillis(101); // the leases end (300 ms) and the watchdogs run (301 ms)
        LockLostException reason = waiting.whenLost().toCompletableFuture().join();
        assertThat(reason)
                .hasMessageContaining("waits-its-turn")
                .hasMessageContaining("before a renewal could be sent")
                .hasMessageContaining("renewal threads were starved");
        VirtualTime.awaitReal(() -> lost.size() == 6, "six lost events");
        // the losses were told on threads of their own; of the renewals, never more than two ran
        calls.awaitRunning(2);
        assertThat(engine.renewals().callsWaiting()).isEqualTo(4);
    }

    /** The memory store, whose renewals of some keys block until the test ends. */
    private final class HangingStore implements LockStore {

        final MemoryLockStore memory = new MemoryLockStore(time::nanoTime);
        final AtomicInteger healthyRenewals = new AtomicInteger();
        final Set<String> hangingKeys = ConcurrentHashMap.newKeySet();
        final CountDownLatch hungCalls = new CountDownLatch(1);
        /** Renewal calls that reached the store and hang now. */
        final AtomicInteger hanging = new AtomicInteger();

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            return memory.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            if (hangingKeys.contains(renewal.key())) {
                hungCalls.countDown();
                hanging.incrementAndGet();
                try {
                    unblock.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                healthyRenewals.incrementAndGet();
            }
            return memory.renew(renewal);
        }

        @Override
        public boolean release(String key, String owner) {
            return memory.release(key, owner);
        }
    }
}
