package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.LockLostException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The renewal scheduler only keeps time: user code told of a loss ({@code whenLost()} callbacks,
 * {@code LockLost} observers behind the {@link LockListener}) runs elsewhere. Here the callbacks of
 * locks lost by the lease watchdog block for seconds — more of them than the scheduler has threads —
 * and meanwhile a healthy lock with a short lease is renewed throughout, and another lock's loss is
 * still signalled at its lease end.
 */
class SlowLossCallbackTest {

    /** The lease of the locks that are lost: short, so they are lost soon. */
    private static final long TTL = 300;
    /** The healthy lock's lease: long enough for a loaded machine's scheduler stalls, short enough to need renewing. */
    private static final long HEALTHY_TTL = 1_000;

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime(); // 2 threads, as Baton's own

    private final CountDownLatch unblock = new CountDownLatch(1);
    private final HangingStore store = new HangingStore();
    private final List<String> blockedListeners = new ArrayList<>();
    private final List<String> blockedCallbacks = new ArrayList<>();

    @AfterEach
    void stop() {
        unblock.countDown();
    }

    @Test
    void slowLossCallbacksDelayNeitherRenewalsNorOtherLossSignals() throws Exception {
        LockListener slowObserver = new LockListener() {
            @Override
            public void lost(HeldLock lock, LockLostException reason) {
                if (lock.key().startsWith("stuck") || lock.key().equals("late")) {
                    synchronized (blockedListeners) {
                        blockedListeners.add(lock.key());
                    }
                    awaitUnblock(); // a synchronous LockLost observer that takes its time
                }
            }
        };
        LockEngine engine = engines.engine(store)
                .ttl(TTL)
                .timeout(1_000)
                .renewThreads(8) // the four renewal calls that hang here keep four of them for good
                .listener(slowObserver)
                .build();
        List<HeldLock> stuck = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            store.hangingKeys.add("stuck-" + i);
            HeldLock lock = engine.acquire("stuck-" + i, TTL, 1_000, true);
            lock.whenLost()
                    .thenRun(
                            () -> { // a whenLost() callback that blocks too (it runs before the listener)
                                synchronized (blockedCallbacks) {
                                    blockedCallbacks.add(lock.key());
                                }
                                awaitUnblock();
                            });
            stuck.add(lock);
        }
        HeldLock healthy = engine.acquire("healthy", HEALTHY_TTL, 1_000, true);

        // The stuck locks are lost at their lease end by the watchdog; their callbacks block.
        for (HeldLock lock : stuck) {
            assertThat(lock.whenLost().toCompletableFuture().isDone() || awaitLoss(lock))
                    .as("loss of %s signalled", lock.key())
                    .isTrue();
        }

        // Later, another lock is lost the same way: its loss is still signalled at its lease end.
        store.hangingKeys.add("late");
        HeldLock late = engine.acquire("late", TTL, 1_000, true);
        long lateStart = System.nanoTime();

        // Three of its leases long: the healthy lock stays renewed, here and in the store.
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * HEALTHY_TTL);
        while (System.nanoTime() < end) {
            assertThat(healthy.isHeld())
                    .as("the healthy lock is renewed while loss callbacks block; lost: %s", healthy.lossReason())
                    .isTrue();
            assertThat(store.acquire(Acquisition.of("healthy", "intruder", TTL)).isAcquired())
                    .as("nobody else can take it")
                    .isFalse();
            Thread.sleep(20);
        }
        assertThat(late.whenLost().toCompletableFuture().isDone())
                .as("the late lock's loss is signalled")
                .isTrue();
        assertThat(late.lossReason()).isNotNull();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lateStart)).isGreaterThanOrEqualTo(TTL);
        synchronized (blockedCallbacks) {
            assertThat(blockedCallbacks)
                    .as("the slow whenLost() callbacks are still blocked")
                    .containsExactlyInAnyOrder("stuck-0", "stuck-1", "stuck-2");
        }
        synchronized (blockedListeners) {
            assertThat(blockedListeners)
                    .as("the late lock's slow observer is still blocked")
                    .containsExactly("late");
        }
        assertThat(healthy.release()).isTrue();
    }

    private boolean awaitLoss(HeldLock lock) throws Exception {
        lock.whenLost().toCompletableFuture().get(5, TimeUnit.SECONDS);
        return true;
    }

    private void awaitUnblock() {
        try {
            unblock.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The memory store, whose renewals of some keys hang until the test ends: those locks are lost by the watchdog. */
    private final class HangingStore implements LockStore {

        final MemoryLockStore memory = new MemoryLockStore();
        final Set<String> hangingKeys = ConcurrentHashMap.newKeySet();

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            return memory.acquire(acquisition);
        }

        @Override
        public boolean renew(Renewal renewal) {
            if (hangingKeys.contains(renewal.key())) {
                awaitUnblock();
            }
            return memory.renew(renewal);
        }

        @Override
        public boolean release(String key, String owner) {
            return memory.release(key, owner);
        }
    }
}
