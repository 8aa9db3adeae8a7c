package dev.baton.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.LockInterruptedException;
import dev.baton.LockStoreException;
import dev.baton.LockTimeoutException;
import dev.baton.impl.store.memory.MemoryLockStore;
import dev.baton.impl.testing.EngineExtension;
import dev.baton.impl.testing.ExclusionDetector;
import dev.baton.spi.AcquireResult;
import dev.baton.spi.Acquisition;
import dev.baton.spi.ForwardingLockStore;
import dev.baton.spi.HandOverResult;
import dev.baton.spi.LockStore;
import dev.baton.tck.Together;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A release hands its key over to the thread of this JVM that waits for it next, in the release's one store call
 * ({@code StoreCapability.HAND_OVER}), and the interleavings around it: the waiter's timeout or interrupt during the
 * store call, a turn of another instance that the hand-over must respect, and many threads at once.
 */
class HandOverTest {

    @RegisterExtension
    final EngineExtension engines = EngineExtension.realTime();

    /** The memory store, its calls counted, its hand-overs held at a gate while {@link #hold} is set. */
    static final class Watched extends ForwardingLockStore {
        final AtomicInteger acquires = new AtomicInteger();
        final AtomicInteger releases = new AtomicInteger();
        final AtomicInteger handOvers = new AtomicInteger();
        final AtomicInteger handedOver = new AtomicInteger();
        volatile CountDownLatch hold;
        /** Fail the hand-over: before the store acts (null: do not fail), or after it did (its answer lost). */
        volatile Boolean failAfterActing;

        final CountDownLatch inHandOver = new CountDownLatch(1);

        Watched(LockStore store) {
            super(store);
        }

        @Override
        public AcquireResult acquire(Acquisition acquisition) {
            acquires.incrementAndGet();
            return super.acquire(acquisition);
        }

        @Override
        public boolean release(String key, String owner) {
            releases.incrementAndGet();
            return super.release(key, owner);
        }

        @Override
        public HandOverResult handOver(String owner, Acquisition next) {
            handOvers.incrementAndGet();
            inHandOver.countDown();
            CountDownLatch h = hold;
            if (h != null) {
                try {
                    h.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Boolean fail = failAfterActing;
            if (fail != null && !fail) {
                throw new LockStoreException("the store stopped answering before the hand-over");
            }
            HandOverResult result = super.handOver(owner, next);
            if (result.next().isAcquired()) {
                handedOver.incrementAndGet();
            }
            if (fail != null) {
                throw new LockStoreException("the hand-over's answer was lost");
            }
            return result;
        }
    }

    @Test
    void theWaitingThreadTakesTheKeyInTheReleasesOwnStoreCall() throws Exception {
        Watched store = new Watched(new MemoryLockStore());
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        HeldLock first = engine.acquire("k", 30_000, 0, false);
        Waiter waiter = start(engine, "k", 10_000);
        CompletableFuture<HeldLock> next = waiter.lock();
        awaitQueued(waiter);
        int acquiresBefore = store.acquires.get();

        assertThat(first.release()).isTrue();
        HeldLock second = next.get(10, TimeUnit.SECONDS);

        assertThat(second.isHeld()).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(store.handedOver).hasValue(1);
        assertThat(store.acquires).as("the waiter asked the store nothing").hasValue(acquiresBefore);
        assertThat(store.releases).as("the release was the hand-over").hasValue(0);
        assertThat(store.inspect("k").orElseThrow().fencingToken()).isEqualTo(second.fencingToken());
        second.close();
        assertThat(store.inspect("k")).isEmpty();
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aWaiterWhoseTimeoutEndsDuringTheHandOverStillTakesTheKeyRatherThanLeaveItHeldForNobody() throws Exception {
        Watched store = new Watched(new MemoryLockStore());
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        HeldHandOver held = handOverHeldInTheStore(store, engine, 300);
        CompletableFuture<HeldLock> next = held.waiter().lock();
        CompletableFuture<Boolean> releasing = held.releasing();

        Thread.sleep(600); // the waiter's 300 ms are over while the store call runs
        assertThat(next).as("still waiting for the store's answer").isNotDone();
        store.hold.countDown();

        assertThat(releasing.get(10, TimeUnit.SECONDS)).isTrue();
        HeldLock second = next.get(10, TimeUnit.SECONDS);
        assertThat(second).as("handed the key as its timeout ended").isNotNull();
        assertThat(store.inspect("k").orElseThrow().fencingToken()).isEqualTo(second.fencingToken());
        second.close();
        assertThat(store.inspect("k")).as("nothing left held").isEmpty();
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void anInterruptedWaiterGivesAKeyHandedOverDuringTheStoreCallBack() throws Exception {
        Watched store = new Watched(new MemoryLockStore());
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        HeldHandOver held = handOverHeldInTheStore(store, engine, 10_000);
        Waiter waiter = held.waiter();
        CompletableFuture<HeldLock> next = waiter.lock();
        CompletableFuture<Boolean> releasing = held.releasing();

        waiter.thread().interrupt();
        Thread.sleep(100);
        store.hold.countDown();

        assertThat(releasing.get(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(next::join).hasCauseInstanceOf(LockInterruptedException.class);
        assertThat(store.handedOver).as("the key was handed over").hasValue(1);
        assertThat(store.inspect("k")).as("and given back").isEmpty();
        assertThat(engine.heldCount()).isZero();
        try (HeldLock again = engine.acquire("k", 30_000, 0, false)) {
            assertThat(again).as("free, and the gate too").isNotNull();
        }
    }

    @ParameterizedTest(name = "after the store acted: {0}")
    @ValueSource(booleans = {false, true})
    void aHandOverWhoseStoreCallFailsLeavesTheWaiterToTakeTheKeyItselfNeverBesideAnotherHolder(boolean afterActing)
            throws Exception {
        Watched store = new Watched(new MemoryLockStore());
        LockEngine engine = engines.engine(store, 300, 10_000);
        HeldLock first = engine.acquire("k", 300, 0, false);
        Waiter waiter = start(engine, "k", 10_000, 300);
        awaitQueued(waiter);
        store.failAfterActing = afterActing;

        assertThatThrownBy(first::release).isInstanceOf(LockStoreException.class);
        HeldLock second = waiter.lock().get(10, TimeUnit.SECONDS);

        // Either way the key is held by nobody the waiter knows of (the first owner, or the lost answer's owner) until
        // that lease ends: the waiter asks the store itself and takes the key only then, with a greater token.
        assertThat(store.handedOver).as("the store acted before failing").hasValue(afterActing ? 1 : 0);
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken() + (afterActing ? 1 : 0));
        assertThat(store.inspect("k").orElseThrow().fencingToken())
                .as("the store's holder is the waiter's own acquisition")
                .isEqualTo(second.fencingToken());
        second.close();
        assertThat(engine.heldCount()).isZero();
    }

    @Test
    void aKeyKeptForAWaiterOfAnotherInstanceIsNotHandedOverToALocalThread() throws Exception {
        MemoryLockStore shared = new MemoryLockStore();
        Watched here = new Watched(shared);
        Watched there = new Watched(shared);
        LockEngine local = engines.engine(here, 30_000, 10_000);
        LockEngine remote = engines.engine(there, 30_000, 10_000);
        HeldLock first = local.acquire("k", 30_000, 0, false);
        CompletableFuture<HeldLock> remoteWaiter = waitFor(remote, "k", 10_000);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (there.acquires.get() < 2 && System.nanoTime() < deadline) { // refused, then asked with its turn
            Thread.sleep(1);
        }
        assertThat(there.acquires.get()).isGreaterThanOrEqualTo(2);
        Waiter localThread = start(local, "k", 10_000);
        CompletableFuture<HeldLock> localWaiter = localThread.lock();
        awaitQueued(localThread);

        first.close();

        HeldLock remoteLock = remoteWaiter.get(10, TimeUnit.SECONDS);
        assertThat(here.handOvers).as("asked").hasValue(1);
        assertThat(here.handedOver).as("but the turn was the other instance's").hasValue(0);
        assertThat(localWaiter).as("the local thread waits for its turn").isNotDone();
        remoteLock.close();
        localWaiter.get(10, TimeUnit.SECONDS).close();
    }

    @Test
    void manyThreadsWithShortTimeoutsAndInterruptsNeverHoldTogetherNorLeaveTheKeyHeld() throws Exception {
        Watched store = new Watched(new MemoryLockStore());
        LockEngine engine = engines.engine(store, 30_000, 10_000);
        ExclusionDetector detector = new ExclusionDetector();
        ConcurrentLinkedQueue<Thread> workers = new ConcurrentLinkedQueue<>();
        AtomicInteger acquired = new AtomicInteger();
        int threads = 6;
        int rounds = 400;
        Thread interrupter = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                for (Thread t : workers) {
                    if (ThreadLocalRandom.current().nextInt(50) == 0) {
                        t.interrupt();
                    }
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            }
        });
        interrupter.start();
        try {
            Together.run(threads, t -> {
                workers.add(Thread.currentThread());
                for (int i = 0; i < rounds; i++) {
                    long timeout = ThreadLocalRandom.current().nextInt(3) == 0 ? 1 : 5_000;
                    HeldLock lock;
                    try {
                        lock = engine.acquire("hot", 30_000, timeout, true);
                    } catch (LockInterruptedException e) {
                        Thread.interrupted();
                        continue;
                    } catch (LockTimeoutException e) {
                        continue;
                    }
                    if (lock == null) {
                        continue;
                    }
                    try {
                        detector.enter();
                        acquired.incrementAndGet();
                        Thread.onSpinWait();
                        detector.exit();
                    } finally {
                        Thread.interrupted();
                        lock.close();
                    }
                }
                workers.remove(Thread.currentThread());
                Thread.interrupted();
            });
        } finally {
            interrupter.interrupt();
            interrupter.join();
        }
        assertThat(detector.maxInside()).isEqualTo(1);
        assertThat(acquired.get()).isEqualTo(detector.entries()).isGreaterThan(threads * rounds / 4);
        assertThat(store.handedOver.get()).as("keys were handed over").isGreaterThan(threads * rounds / 10);
        assertThat(store.inspect("hot")).as("nothing left held").isEmpty();
        assertThat(engine.heldCount()).isZero();
        try (HeldLock again = engine.acquire("hot", 30_000, 0, false)) {
            assertThat(again).isNotNull();
        }
    }

    /** A waiter queued behind a holder of "k", and that holder's release, held inside the store's hand-over call. */
    record HeldHandOver(Waiter waiter, CompletableFuture<Boolean> releasing) {}

    private static HeldHandOver handOverHeldInTheStore(Watched store, LockEngine engine, long waiterTimeoutMillis)
            throws InterruptedException {
        HeldLock first = engine.acquire("k", 30_000, 0, false);
        Waiter waiter = start(engine, "k", waiterTimeoutMillis);
        awaitQueued(waiter);
        store.hold = new CountDownLatch(1);
        CompletableFuture<Boolean> releasing = CompletableFuture.supplyAsync(first::release);
        assertThat(store.inHandOver.await(10, TimeUnit.SECONDS)).isTrue();
        return new HeldHandOver(waiter, releasing);
    }

    /** A thread that acquires {@code key}, waiting up to {@code timeoutMillis}; its outcome completes {@link #lock}. */
    record Waiter(Thread thread, CompletableFuture<HeldLock> lock) {}

    private static Waiter start(LockEngine engine, String key, long timeoutMillis) {
        return start(engine, key, timeoutMillis, 30_000);
    }

    private static Waiter start(LockEngine engine, String key, long timeoutMillis, long ttlMillis) {
        CompletableFuture<HeldLock> lock = new CompletableFuture<>();
        Thread thread = new Thread(
                () -> {
                    try {
                        lock.complete(engine.acquire(key, ttlMillis, timeoutMillis, true));
                    } catch (Throwable e) {
                        lock.completeExceptionally(e);
                    }
                },
                "waiter");
        thread.setDaemon(true);
        thread.start();
        return new Waiter(thread, lock);
    }

    private static CompletableFuture<HeldLock> waitFor(LockEngine engine, String key, long timeoutMillis) {
        return start(engine, key, timeoutMillis).lock();
    }

    /** Waits until the waiter's thread waits in its key's local queue (for the gate's permit). */
    private static void awaitQueued(Waiter waiter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            // parked in the synchronizer's timed acquisition: queued (it parks only once its node is in the queue)
            boolean parked = false;
            for (StackTraceElement frame : waiter.thread().getStackTrace()) {
                parked |= frame.getMethodName().equals("parkNanos");
                if (parked && frame.getMethodName().equals("tryAcquireNanos")) {
                    return;
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the waiter did not queue for the key");
    }
}
